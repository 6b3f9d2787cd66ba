import type { Context } from 'koa';
import type { FacadeError } from './facade-error.js';

export type Family = 'library' | 'library-admin' | 'research' | 'operations';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route sees of the HTTP request. */
export interface RouteInput {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly baseUrl: string;
  readonly path: string;
}

export interface RouteResult {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Content type when the body is not JSON. */
  readonly type?: string;
}

/**
 * One documented REST path: which named GraphQL operation serves it, how the
 * request becomes variables, and how the data becomes the documented body.
 * Routes without an operation answer from the edge alone (liveness, static pages).
 */
export interface RouteDefinition {
  readonly method: HttpMethod;
  readonly path: string;
  readonly family: Family;
  readonly operation?: string;
  /**
   * `json` (default for POST/PUT/PATCH), `text` (the raw body as a string), `none`, or
   * `upload`: the body is not read here but streamed, as it arrives, to the streaming
   * operation named by `operation` (e.g. a file to import, whatever its size); its one
   * event is the data `respond` receives, under the operation's name.
   */
  readonly body?: 'json' | 'text' | 'none' | 'upload';
  /** Largest body accepted, in bytes (default 1 MiB). */
  readonly bodyLimit?: number;
  readonly variables?: (input: RouteInput) => Record<string, unknown>;
  /** When the request asks for a stream, the events of a streaming operation answer instead, as SSE. */
  readonly stream?: RouteStream;
  /** Turns data into the documented body; may throw a FacadeError for a documented failure. */
  readonly respond: (data: Record<string, unknown>, input: RouteInput) => RouteResult | FacadeError;
}

/**
 * The streamed form of a route (docs/adr/0006): a streaming operation declared by a
 * subgraph module, given the route's `variables`, its events written as server-sent events.
 */
export interface RouteStream {
  readonly operation: string;
  /** Whether this request asks for the stream (e.g. body `stream: true`); otherwise the GraphQL operation answers. */
  readonly when: (input: RouteInput) => boolean;
  /** A fresh encoder per response: one event → the `data:` payloads to send (objects are sent as JSON). */
  readonly encoder: (input: RouteInput) => (event: unknown) => readonly unknown[];
  /** Payload sent after the last event, e.g. `[DONE]`; a stream that fails ends with the family's error body instead. */
  readonly done?: string;
}

/** Maps an error to one family's documented wire shape. */
export type ErrorMapper = (error: FacadeError, ctx: Context) => RouteResult;
