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
  /** `json` (default for POST/PUT/PATCH) or `none`. */
  readonly body?: 'json' | 'none';
  readonly variables?: (input: RouteInput) => Record<string, unknown>;
  /** Turns data into the documented body; may throw a FacadeError for a documented failure. */
  readonly respond: (data: Record<string, unknown>, input: RouteInput) => RouteResult | FacadeError;
}

/** Maps an error to one family's documented wire shape. */
export type ErrorMapper = (error: FacadeError, ctx: Context) => RouteResult;
