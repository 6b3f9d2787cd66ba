import { Readable } from 'node:stream';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { Middleware } from 'koa';
import { BodyError, readJsonBody } from '../runtime/http/body.js';
import type { GatewayContext } from './context.js';
import { EXPLORER_CSP } from './explorer/serve.js';
import { CommonErrorCode, EdgeErrorCode, GraphQLErrorCode, wireCode } from '../contracts/errors.js';

/** Request errors: the document or its variables were refused before anything ran. */
const REQUEST_ERROR_CODES = new Set(
  [
    GraphQLErrorCode.GRAPHQL_PARSE_FAILED,
    GraphQLErrorCode.GRAPHQL_VALIDATION_FAILED,
    CommonErrorCode.BAD_USER_INPUT,
    GraphQLErrorCode.OPERATION_RESOLUTION_FAILURE,
  ].map(wireCode),
);

/**
 * GraphQL over HTTP: a client that asked for `application/json` gets 200 for a request
 * error, as that media type's rules say (the status then says only that the request was
 * well-formed); `application/graphql-response+json`, and clients that do not name
 * `application/json` (no `Accept`, or `*\/*`, answered in `application/json` all the
 * same), keep the 4xx.
 */
function statusFor(accept: string, contentType: string | undefined, status: number, body: string): number {
  if (status !== 400 || !accept.includes('application/json') || !contentType?.startsWith('application/json')) return status;
  try {
    const parsed = JSON.parse(body) as { data?: unknown; errors?: Array<{ extensions?: { code?: unknown } }> };
    const requestError =
      !('data' in parsed) &&
      parsed.errors?.length &&
      parsed.errors.every((error) => REQUEST_ERROR_CODES.has(String(error.extensions?.code)));
    return requestError ? 200 : status;
  } catch {
    return status;
  }
}

/** Serves Apollo Server on a Koa route (POST and GET), streaming incremental bodies as they come. */
export function koaGraphQL(
  server: ApolloServer<GatewayContext>,
  contextFor: (ctx: Parameters<Middleware>[0]) => GatewayContext,
): Middleware {
  return async (ctx) => {
    let body: unknown;
    if (ctx.method === 'POST') {
      try {
        body = await readJsonBody(ctx, 2_097_152);
      } catch (error) {
        if (!(error instanceof BodyError)) throw error;
        ctx.status = error.status;
        ctx.body = { errors: [{ message: error.message, extensions: { code: wireCode(EdgeErrorCode.BAD_REQUEST) } }] };
        return;
      }
    }
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(ctx.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: ctx.method.toUpperCase(), headers, search: ctx.querystring ? `?${ctx.querystring}` : '', body },
      context: async () => contextFor(ctx),
    });
    for (const [name, value] of response.headers) ctx.set(name, value);
    // The explorer's page loads its own script and stylesheet from here, and nothing else.
    if (response.headers.get('content-type')?.startsWith('text/html')) ctx.set('Content-Security-Policy', EXPLORER_CSP);
    ctx.status = response.status ?? 200;
    if (response.body.kind === 'complete') {
      ctx.status = statusFor(ctx.get('accept'), response.headers.get('content-type'), ctx.status, response.body.string);
      ctx.body = response.body.string;
      return;
    }
    ctx.body = Readable.from(response.body.asyncIterator);
  };
}
