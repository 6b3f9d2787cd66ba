import { Readable } from 'node:stream';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { Middleware } from 'koa';
import { BodyError, readJsonBody } from '../runtime/http/body.js';
import type { GatewayContext } from './context.js';

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
        ctx.body = { errors: [{ message: error.message, extensions: { code: 'BAD_REQUEST' } }] };
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
    // The landing page is self-contained; the browser is told to load nothing else.
    if (response.headers.get('content-type')?.startsWith('text/html')) ctx.set('Content-Security-Policy', "default-src 'none'");
    ctx.status = response.status ?? 200;
    if (response.body.kind === 'complete') {
      ctx.body = response.body.string;
      return;
    }
    ctx.body = Readable.from(response.body.asyncIterator);
  };
}
