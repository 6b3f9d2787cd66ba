import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { ApolloServer } from '@apollo/server';
import Koa, { type Context, type Middleware } from 'koa';
import type { GatewayContext } from '../gateway/context.js';
import { koaGraphQL } from '../gateway/koa-graphql.js';
import type { StreamSources } from '../gateway/stream-sources.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { EdgeErrorCode } from '../contracts/errors.js';
import { contractFamily } from '../contracts/input.js';
import { familyOf } from '../contracts/families.js';
import type { OperationContract, ServiceName } from '../contracts/operation.js';
import { ALL_CONTRACTS, checkContracts, CONTRACTS } from '../contracts/registry.js';
import { FacadeError } from './facade-error.js';
import { routeHandler, sendError } from './handler.js';
import { serviceOpenApi } from './openapi/generate.js';
import { loadOperations } from './operations.js';
import type { Route } from './route.js';
import { requestHeaders } from '../runtime/http/headers.js';
import { serveMounts, type HttpMount, type PublicOrigin } from '../subgraphs/shared/subgraph.js';
import type { ConsoleSignIn } from '../runtime/config.js';
import { serveConsole } from './console.js';

export interface AppOptions {
  readonly server: ApolloServer<GatewayContext>;
  /** Streaming operations for routes with a `stream` (the gateway's). */
  readonly streams?: StreamSources;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly publicBaseUrl?: string;
  /** The operations served (default: every contract of every service). */
  readonly contracts?: readonly OperationContract[];
  /** Subgraphs' non-GraphQL HTTP (e.g. the OpenID provider at `/oidc`), served before the routes. */
  readonly mounts?: readonly HttpMount[];
  /** Where clients reach the deployment (the console's default issuer is `<origin>/oidc`); default each request's base URL. */
  readonly origin?: PublicOrigin;
  /** The identity provider the console signs in with, when not ours (`CONSOLE_ISSUER`). */
  readonly consoleSignIn?: ConsoleSignIn;
}

/** Every REST route of the contracts, one per binding. */
export function contractRoutes(contracts: readonly OperationContract[]): Route[] {
  return contracts.flatMap((contract) => contract.rest.map((binding) => ({ contract, binding, family: contractFamily(contract) })));
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

/** The one Koa app on PORT: REST facade, `/graphql`, `/metrics`, the subgraphs' mounts, the console; no `listen` here. */
export function createApp(options: AppOptions): Koa {
  checkContracts();
  const app = new Koa();
  app.silent = true;
  const operations = loadOperations();
  const documents = new Map<ServiceName, Record<string, unknown>>();
  const openapi = (service: ServiceName) => {
    let document = documents.get(service);
    if (!document) documents.set(service, (document = serviceOpenApi(service, CONTRACTS[service])));
    return document;
  };
  const baseUrlFor = (ctx: Context) => options.publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`;
  const contextFor = (ctx: Context): GatewayContext => {
    const headers = requestHeaders(ctx);
    return {
      headers,
      requestId: ctx.state.requestId as string,
      clientIp: ctx.ip,
      baseUrl: baseUrlFor(ctx),
      logger: ctx.state.logger as Logger,
      subgraphExtensions: {},
    };
  };
  const router = new Router();
  const deps = { server: options.server, streams: options.streams, operations, contextFor, baseUrlFor, openapi };
  for (const route of contractRoutes(options.contracts ?? ALL_CONTRACTS)) {
    router.register(route.binding.path, [route.binding.method], routeHandler(route, deps));
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
  app.use(serveMounts(options.mounts ?? []));
  app.use(serveConsole({ signIn: options.consoleSignIn, origin: (ctx) => options.origin?.() ?? baseUrlFor(ctx) }));
  app.use(router.routes());
  app.use(async (ctx) => {
    const matched = router.match(ctx.path, ctx.method);
    if (matched.path.length > 0 && !matched.route) {
      const allow = [...new Set(matched.path.flatMap((layer) => layer.methods))].join(', ');
      ctx.set('Allow', allow);
      sendError(ctx, familyOf(ctx.path), FacadeError.of(EdgeErrorCode.METHOD_NOT_ALLOWED, `${ctx.method} is not allowed on ${ctx.path}`));
      return;
    }
    sendError(ctx, familyOf(ctx.path), FacadeError.notFound(ctx.path));
  });
  return app;
}
