import type { ApolloServer } from '@apollo/server';
import type { Context, Middleware } from 'koa';
import type { GatewayContext } from '../gateway/context.js';
import { edgeHeaders } from '../gateway/edge-headers.js';
import type { StreamSources } from '../gateway/stream-sources.js';
import { BodyError, readJsonBody, readRawBody } from '../runtime/http/body.js';
import { serveEventStream } from './event-stream.js';
import { FacadeError } from './facade-error.js';
import { ERROR_MAPPERS } from './families.js';
import type { RouteDefinition, RouteInput, RouteResult } from './route.js';
import { requestHeaders } from '../runtime/http/headers.js';

export interface HandlerDeps {
  readonly server: ApolloServer<GatewayContext>;
  readonly operations: ReadonlyMap<string, string>;
  readonly contextFor: (ctx: Context) => GatewayContext;
  readonly baseUrlFor: (ctx: Context) => string;
  /** Streaming operations, for routes with a `stream`. */
  readonly streams?: StreamSources;
}

/** Writes a route result (or a mapped error) to Koa. */
export function send(ctx: Context, result: RouteResult): void {
  ctx.status = result.status ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
  if (result.type) ctx.type = result.type;
  ctx.body =
    result.type && typeof result.body === 'object' && result.body !== null && !Buffer.isBuffer(result.body)
      ? JSON.stringify(result.body)
      : (result.body as never);
}

/** Maps any failure into the route family's documented error shape. */
export function sendError(ctx: Context, family: RouteDefinition['family'], error: unknown): void {
  const facadeError = error instanceof FacadeError ? error : FacadeError.internal();
  send(ctx, ERROR_MAPPERS[family](facadeError, ctx));
}

function queryOf(ctx: Context): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(ctx.query)) query[name] = Array.isArray(value) ? value[0] : value;
  return query;
}

async function inputOf(ctx: Context, route: RouteDefinition, baseUrl: string): Promise<RouteInput> {
  const wantsBody = route.body ? route.body !== 'none' && route.body !== 'upload' : ['POST', 'PUT', 'PATCH'].includes(route.method);
  let body: unknown;
  if (wantsBody) {
    try {
      body = route.body === 'text' ? (await readRawBody(ctx, route.bodyLimit)).toString('utf8') : await readJsonBody(ctx, route.bodyLimit);
    } catch (error) {
      if (error instanceof BodyError) throw new FacadeError(error.status, 'BAD_REQUEST', error.message);
      throw error;
    }
  }
  const headers = requestHeaders(ctx);
  return { params: (ctx.params ?? {}) as Record<string, string>, query: queryOf(ctx), body, headers, baseUrl, path: ctx.path };
}

/**
 * The one REST handler: reads the request, runs the route's named operation on
 * the gateway, and answers with the route's body or the family's error shape. A
 * route's `stream`, when the request asks for it, answers instead with the events
 * of a streaming operation as server-sent events (`event-stream.ts`, ADR 0006).
 */
export function routeHandler(route: RouteDefinition, deps: HandlerDeps): Middleware {
  const { streams } = deps;
  if (route.body === 'upload') return uploadHandler(route, deps);
  const document = route.operation ? deps.operations.get(route.operation) : undefined;
  if (route.operation && !document) throw new Error(`route ${route.method} ${route.path}: unknown operation ${route.operation}`);
  if (route.stream && streams && !streams.has(route.stream.operation)) {
    throw new Error(`route ${route.method} ${route.path}: unknown stream ${route.stream.operation}`);
  }
  return async (ctx) => {
    try {
      const input = await inputOf(ctx, route, deps.baseUrlFor(ctx));
      if (route.stream?.when(input)) {
        if (!streams) throw FacadeError.internal();
        await serveEventStream(ctx, { ...route, stream: route.stream }, input, { streams, contextFor: deps.contextFor });
        return;
      }
      let data: Record<string, unknown> = {};
      if (document) {
        const contextValue = deps.contextFor(ctx);
        const response = await deps.server.executeOperation(
          { query: document, operationName: route.operation, variables: route.variables?.(input) ?? {} },
          { contextValue },
        );
        for (const [name, value] of Object.entries(edgeHeaders(contextValue.subgraphExtensions))) ctx.set(name, value);
        const result = response.body.kind === 'single' ? response.body.singleResult : undefined;
        if (!result) throw FacadeError.internal();
        const firstError = result.errors?.[0];
        if (firstError) throw FacadeError.fromGraphQL(firstError);
        data = (result.data ?? {}) as Record<string, unknown>;
      }
      const outcome = route.respond(data, input);
      if (outcome instanceof FacadeError) throw outcome;
      send(ctx, outcome);
    } catch (error) {
      if (!(error instanceof FacadeError)) ctx.state.logger?.error({ err: error }, 'unexpected facade error');
      sendError(ctx, route.family, error);
    }
  };
}

/**
 * A route whose body is an upload: the request body goes unread to the streaming
 * operation (in this process or over HTTP), so memory does not grow with its size.
 */
function uploadHandler(route: RouteDefinition, deps: HandlerDeps): Middleware {
  const name = route.operation;
  if (!name || !deps.streams?.has(name)) throw new Error(`route ${route.method} ${route.path}: unknown upload stream ${name}`);
  const streams = deps.streams;
  return async (ctx) => {
    try {
      const input = await inputOf(ctx, route, deps.baseUrlFor(ctx));
      const contextValue = deps.contextFor(ctx);
      const controller = new AbortController();
      ctx.res.once('close', () => {
        if (!ctx.res.writableFinished) controller.abort();
      });
      const opening = await streams.open(name, route.variables?.(input) ?? {}, contextValue, controller.signal, ctx.req);
      for (const [header, value] of Object.entries(edgeHeaders(contextValue.subgraphExtensions))) ctx.set(header, value);
      if (!opening.ok) throw FacadeError.fromGraphQL(opening.error);
      let data: unknown;
      for await (const event of opening.events) {
        data = event;
        break;
      }
      const outcome = route.respond({ [name]: data }, input);
      if (outcome instanceof FacadeError) throw outcome;
      send(ctx, outcome);
    } catch (error) {
      if (!(error instanceof FacadeError)) ctx.state.logger?.error({ err: error }, 'unexpected facade error');
      sendError(ctx, route.family, error);
    }
  };
}
