import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import Koa, { type Context, type Middleware } from 'koa';
import type { GatewayContext } from '../gateway/context.js';
import type { Gateway, InternalExecutor } from '../gateway/create-gateway.js';
import { serveExplorerAsset, serveSchemaDocument } from '../gateway/explorer/serve.js';
import { koaGraphQL } from '../gateway/koa-graphql.js';
import type { StreamSources } from '../gateway/stream-sources.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { EdgeErrorCode } from '../contracts/errors.js';
import { contractFamily } from '../contracts/input.js';
import { familyOf } from '../contracts/families.js';
import {
  callerCheckOperationOf,
  refusalOperationOf,
  type OperationContract,
  type ServiceName,
  type WireRequest,
} from '../contracts/operation.js';
import { ALL_CONTRACTS, checkContracts, CONTRACTS, MCP_SERVERS } from '../contracts/registry.js';
import { mcpCatalog, mcpEndpoint } from '../mcp/endpoint.js';
import { originPolicy } from '../mcp/origins.js';
import { OperationRunner } from '../edge/execute.js';
import { FacadeError } from '../edge/facade-error.js';
import { routeHandler, sendError } from '../rest-facade/handler.js';
import { identityProviderMirror } from '../rest-facade/identity-mirror.js';
import { serviceOpenApi } from '../rest-facade/openapi/generate.js';
import { loadOperations } from '../rest-facade/operations.js';
import type { Route } from '../rest-facade/route.js';
import { requestHeaders } from '../runtime/http/headers.js';
import { serveMounts, type HttpMount, type PublicOrigin } from '../subgraphs/shared/subgraph.js';
import type { Config } from '../runtime/config.js';
import { workspaceResource } from '../runtime/workspace-resource.js';
import { serveConsole } from '../rest-facade/console.js';
import { cors } from '../rest-facade/cors.js';
import { serveDocsAssets, serveRegisterAssets } from '../rest-facade/docs-assets.js';

export interface AppOptions {
  readonly server: ApolloServer<GatewayContext>;
  /** Prepares the named operations REST routes and MCP tools run (the gateway's `prepare`). */
  readonly prepare: Gateway['prepare'];
  /** The edge's internal operations on the owning subgraph (the gateway's `internal`). */
  readonly internal: InternalExecutor;
  /** The public graph's schema as the gateway loaded it (`GET /graphql/schema.graphql`). */
  readonly apiSchema?: () => GraphQLSchema | undefined;
  /** Streaming operations for routes with a `stream` (the gateway's). */
  readonly streams?: StreamSources;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Share of requests answered below 500 that get an access-log line (`ACCESS_LOG_SAMPLE`); default all. */
  readonly accessLogSample?: number;
  /** Where to record error answers a route's contract does not declare (`QANTARA_CHECK_DECLARED_ERRORS`; tests). */
  readonly declaredErrorsLog?: string;
  readonly publicBaseUrl?: string;
  /** `{site_url}` when it differs from `publicBaseUrl` (discovery documents). */
  readonly siteBaseUrl?: string;
  /** `{api_url}` when it differs from `publicBaseUrl` (REST and MCP endpoints, resource addresses). */
  readonly apiBaseUrl?: string;
  /** Where clients reach the process when no base URL is set (the bound address); known once it listens. */
  readonly boundOrigin?: () => string;
  /** Browser origins allowed on the MCP endpoints besides those of the base URLs (`MCP_ALLOWED_ORIGINS`). */
  readonly mcpAllowedOrigins?: readonly string[];
  /** Browser origins allowed across origins on REST, GraphQL and MCP (`CORS_ORIGINS`, `*` for any without credentials). */
  readonly corsOrigins?: readonly string[];
  /**
   * Whom the workspace API trusts and whom the console signs in with (`WORKSPACE_OWN_ISSUER`,
   * `WORKSPACE_ISSUERS`, `CONSOLE_*`): with `siteBaseUrl`, they name the workspace API's resource
   * and its authorization servers, and the identity provider the site mirrors. Default: ours alone.
   */
  readonly identity?: Pick<Config, 'workspaceOwnIssuer' | 'workspaceIssuers' | 'console'>;
  /** The operations served (default: every contract of every service). */
  readonly contracts?: readonly OperationContract[];
  /** Subgraphs' non-GraphQL HTTP (e.g. the OpenID provider at `/oidc`), served before the routes. */
  readonly mounts?: readonly HttpMount[];
  /** Where clients reach the deployment (the console's default issuer is `<origin>/oidc`); default each request's base URL. */
  readonly origin?: PublicOrigin;
}

const OURS_ALONE: NonNullable<AppOptions['identity']> = { workspaceOwnIssuer: true, workspaceIssuers: [], console: undefined };

/** Every REST route of the contracts, one per binding. */
export function contractRoutes(contracts: readonly OperationContract[]): Route[] {
  return contracts.flatMap((contract) => contract.rest.map((binding) => ({ contract, binding, family: contractFamily(contract) })));
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request id (taken from `x-request-id` when sane), a request logger and the access log line.
 * The request's child logger is made on first use (most requests never log), and only a
 * `sample` share of the requests answered below 500 get an access-log line; a 5xx always does.
 */
function requestScope(logger: Logger, sample: number): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    let child: Logger | undefined;
    Object.defineProperty(ctx.state, 'logger', {
      configurable: true,
      enumerable: true,
      get: () => (child ??= logger.child({ requestId })),
      set: (value: Logger) => (child = value),
    });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      if (ctx.status >= 500 || sample >= 1 || (sample > 0 && Math.random() < sample)) {
        (ctx.state.logger as Logger).info(
          { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 100) / 100 },
          'request',
        );
      }
    }
  };
}

/**
 * Request counts and latency by route template (never by raw path, to bound cardinality). The
 * labelled series are looked up once per method, route and status and kept, so a request costs
 * one map lookup instead of hashing its labels twice.
 */
function httpMetrics(metrics: Metrics): Middleware {
  const series = new Map<string, { observe(seconds: number): void; inc(): void }>();
  const seriesFor = (method: string, route: string, status: string) => {
    const key = `${method} ${status} ${route}`;
    let found = series.get(key);
    if (!found) {
      const labels = { method, route, status };
      const duration = metrics.httpDuration.labels(labels);
      const requests = metrics.httpRequests.labels(labels);
      found = { observe: (seconds) => duration.observe(seconds), inc: () => requests.inc() };
      series.set(key, found);
    }
    return found;
  };
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as Context & { routerPath?: string }).routerPath ?? (ctx.state.route as string | undefined) ?? 'unmatched';
      const labelled = seriesFor(ctx.method, route, String(ctx.status));
      labelled.observe((performance.now() - started) / 1000);
      labelled.inc();
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
      ...(ctx.state.routeAccess ? { routeAccess: ctx.state.routeAccess as GatewayContext['routeAccess'] } : {}),
      subgraphExtensions: {},
    };
  };
  const publicOrigin = () => options.publicBaseUrl ?? options.boundOrigin?.();
  const identity = options.identity ?? OURS_ALONE;
  // The workspace API's names, decided as the provider and the API's guard decide them (never from a request's Host).
  const workspace = (ctx?: Context) =>
    workspaceResource({ siteBaseUrl: options.siteBaseUrl, ...identity }, publicOrigin() ?? (ctx ? baseUrlFor(ctx) : ''));
  const identityProvider = identityProviderMirror(() => workspace().siteIssuer);
  const ownIdentityProvider = identityProviderMirror(() => workspace().ownIssuer);
  const siteUrlFor = (ctx: Context) => options.siteBaseUrl ?? baseUrlFor(ctx);
  const apiUrlFor = (ctx: Context) => options.apiBaseUrl ?? baseUrlFor(ctx);
  const wireRequest = (ctx: Context, service: ServiceName, input: Record<string, unknown>, body: unknown): WireRequest => ({
    baseUrl: baseUrlFor(ctx),
    siteUrl: siteUrlFor(ctx),
    apiUrl: apiUrlFor(ctx),
    identityProvider,
    ownIdentityProvider,
    workspaceResource: workspace(ctx),
    input,
    body,
    headers: requestHeaders(ctx),
    openapi: () => openapi(service),
    metrics: async () => ({ type: options.metrics.registry.contentType, body: await options.metrics.registry.metrics() }),
  });
  // The edge's internal operations run on their subgraph, outside the public graph (`internal`); the others through it.
  const internalNames = new Set(
    (Object.keys(CONTRACTS) as ServiceName[]).flatMap((s) => [refusalOperationOf(s), callerCheckOperationOf(s)]),
  );
  const named = options.prepare(new Map([...operations].filter(([name]) => !internalNames.has(name))));
  const runner = new OperationRunner({ named, internal: options.internal, operations, contextFor, wireRequest });
  const contracts = options.contracts ?? ALL_CONTRACTS;
  const router = new Router();
  const deps = { runner, streams: options.streams, contextFor, declaredErrorsLog: options.declaredErrorsLog };
  for (const route of contractRoutes(contracts)) {
    router.register(route.binding.path, [route.binding.method], routeHandler(route, deps));
  }
  const corsOrigins = options.corsOrigins ?? [];
  const origins = originPolicy({
    // Origins named in CORS_ORIGINS may call MCP too; its wildcard never widens the MCP origin check.
    configured: [...(options.mcpAllowedOrigins ?? []), ...corsOrigins.filter((origin) => origin !== '*')],
    baseUrls: [options.publicBaseUrl, options.siteBaseUrl, options.apiBaseUrl].filter((url) => url !== undefined),
    boundOrigin: options.boundOrigin,
  });
  const served = new Set(contracts.map((contract) => contract.service));
  for (const declaration of MCP_SERVERS.filter((server) => served.has(server.service))) {
    const sendFamilyError = (ctx: Context, error: FacadeError) => sendError(ctx, familyOf(declaration.path), error);
    const endpoint = mcpEndpoint(
      declaration,
      { runner, origins, apiUrlFor, sendError: sendFamilyError },
      mcpCatalog(declaration, contracts),
    );
    router.all(declaration.path, endpoint);
  }
  const graphql = koaGraphQL(options.server, contextFor);
  // Served before the router (below); registered too, so other methods get 405 with `Allow`.
  router.post('/graphql', graphql);
  router.get('/graphql', graphql);
  router.get('/graphql/schema.graphql', serveSchemaDocument(options.apiSchema ?? (() => undefined)));
  router.get('/graphql/explorer.js', serveExplorerAsset('script'));
  router.get('/graphql/explorer.css', serveExplorerAsset('style'));
  // `/metrics` is the operations contract `operationsMetrics`; an app serving no operations still exports its metrics.
  if (!served.has('operations')) {
    router.get('/metrics', async (ctx) => {
      ctx.type = options.metrics.registry.contentType;
      ctx.body = await options.metrics.registry.metrics();
    });
  }
  app.use(requestScope(options.logger, options.accessLogSample ?? 1));
  app.use(httpMetrics(options.metrics));
  app.use(catchAll());
  app.use(cors({ origins: corsOrigins, ownOriginCheck: MCP_SERVERS.map((server) => server.path) }));
  // GraphQL is dispatched here, before the mounts, the static files and the router of every REST route.
  app.use((ctx, next) => {
    if (ctx.path !== '/graphql' || (ctx.method !== 'POST' && ctx.method !== 'GET')) return next();
    ctx.state.route = '/graphql';
    return graphql(ctx, next);
  });
  app.use(serveMounts(options.mounts ?? []));
  app.use(serveDocsAssets());
  app.use(serveRegisterAssets());
  app.use(serveConsole({ signIn: identity.console, origin: (ctx) => options.origin?.() ?? baseUrlFor(ctx) }));
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
