import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { ApolloServer } from '@apollo/server';
import Koa, { type Context, type Middleware } from 'koa';
import type { GatewayContext } from '../gateway/context.js';
import { koaGraphQL } from '../gateway/koa-graphql.js';
import type { StreamSources } from '../gateway/stream-sources.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { FacadeError } from './facade-error.js';
import { familyOf } from './families.js';
import { routeHandler, sendError } from './handler.js';
import { loadOperations } from './operations.js';
import type { RouteDefinition } from './route.js';
import { ROUTES } from './routes/index.js';
import { requestHeaders } from '../runtime/http/headers.js';

export interface AppOptions {
  readonly server: ApolloServer<GatewayContext>;
  /** Streaming operations for routes with a `stream` (the gateway's). */
  readonly streams?: StreamSources;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly publicBaseUrl?: string;
  readonly routes?: readonly RouteDefinition[];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request id (taken from `x-request-id` when sane), a request logger and the access log line. */
function requestScope(logger: Logger): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.logger = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      ctx.state.logger.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 100) / 100 },
        'request',
      );
    }
  };
}

/** Request counts and latency by route template (never by raw path, to bound cardinality). */
function httpMetrics(metrics: Metrics): Middleware {
  return async (ctx, next) => {
    const end = metrics.httpDuration.startTimer();
    try {
      await next();
    } finally {
      const labels = {
        method: ctx.method,
        route: (ctx as Context & { routerPath?: string }).routerPath ?? (ctx.state.route as string | undefined) ?? 'unmatched',
        status: String(ctx.status),
      };
      end(labels);
      metrics.httpRequests.inc(labels);
    }
  };
}

/** Last line of defence: an error nobody mapped becomes the family's 500, never an HTML page. */
function catchAll(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      ctx.state.logger?.error({ err: error }, 'unhandled error');
      sendError(ctx, familyOf(ctx.path), error instanceof FacadeError ? error : FacadeError.internal());
    }
  };
}

/** The one Koa app on PORT: REST facade, `/graphql`, `/metrics`; no `listen` here. */
export function createApp(options: AppOptions): Koa {
  const app = new Koa();
  app.silent = true;
  const operations = loadOperations();
  const contextFor = (ctx: Context): GatewayContext => {
    const headers = requestHeaders(ctx);
    return {
      headers,
      requestId: ctx.state.requestId as string,
      clientIp: ctx.ip,
      logger: ctx.state.logger as Logger,
      subgraphExtensions: {},
    };
  };
  const baseUrlFor = (ctx: Context) => options.publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`;
  const router = new Router();
  for (const route of options.routes ?? ROUTES) {
    router.register(
      route.path,
      [route.method],
      routeHandler(route, { server: options.server, streams: options.streams, operations, contextFor, baseUrlFor }),
    );
  }
  const graphql = koaGraphQL(options.server, contextFor);
  router.post('/graphql', graphql);
  router.get('/graphql', graphql);
  router.get('/metrics', async (ctx) => {
    ctx.type = options.metrics.registry.contentType;
    ctx.body = await options.metrics.registry.metrics();
  });
  app.use(requestScope(options.logger));
  app.use(httpMetrics(options.metrics));
  app.use(catchAll());
  app.use(router.routes());
  app.use(async (ctx) => {
    const matched = router.match(ctx.path, ctx.method);
    if (matched.path.length > 0 && !matched.route) {
      const allow = [...new Set(matched.path.flatMap((layer) => layer.methods))].join(', ');
      ctx.set('Allow', allow);
      sendError(ctx, familyOf(ctx.path), new FacadeError(405, 'METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`));
      return;
    }
    sendError(ctx, familyOf(ctx.path), FacadeError.notFound(ctx.path));
  });
  return app;
}
