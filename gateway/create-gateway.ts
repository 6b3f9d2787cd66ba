import { ApolloGateway, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { SubgraphName } from '../runtime/config.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import type { RunningSubgraph } from '../subgraphs/shared/host.js';
import type { GatewayContext } from './context.js';
import { ForwardingRemoteDataSource, InProcessDataSource } from './data-sources.js';
import { useLocalLandingPage } from './landing-page.js';
import { ARMOR_CONFIG, GATEWAY_LIMITS, SUGGESTION_MASK } from './limits.js';
import { prepareNamedOperations, type NamedOperationExecutor } from './named-operations.js';
import { KnownRootOperationRule } from './root-operation-rule.js';
import { useEdgeResponse } from './plugins/use-edge-response.js';
import { createStreamSources, type StreamSources } from './stream-sources.js';
import { CommonErrorCode, wireCode } from '../contracts/errors.js';

const INTERNAL_CODE = wireCode(CommonErrorCode.INTERNAL_SERVER_ERROR);

/** Where each subgraph runs: in this process, or behind an HTTP URL. */
export type SubgraphTargets = Readonly<Record<SubgraphName, RunningSubgraph | string>>;

export interface GatewayOptions {
  readonly supergraphSdl: string;
  readonly subgraphs: SubgraphTargets;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Sent to remote subgraphs, which answer only requests that carry it (`SUBGRAPH_SECRET`). */
  readonly subgraphSecret?: string;
  /** Merge identical subgraph queries in flight at once into one fetch (`GRAPHQL_DEDUPLICATE`); off unless set. */
  readonly deduplicate?: boolean;
  /** Which subgraph declares each streaming operation (`streamOwners(SUBGRAPHS)`); none by default. */
  readonly streamOwners?: Readonly<Record<string, SubgraphName>>;
}

const ENTITIES_FETCH = /^[^{]*\{\s*_entities\s*\(/;

/** Counts the requests sent to a subgraph (`qantara_subgraph_fetches_total`): entity fetches of query plans apart. */
function counted(name: string, source: GraphQLDataSource<GatewayContext>, metrics: Metrics): GraphQLDataSource<GatewayContext> {
  return {
    process(options) {
      const root = ENTITIES_FETCH.test(options.request.query ?? '') ? 'entities' : 'operation';
      metrics.subgraphFetches?.inc({ subgraph: name, root });
      return source.process(options);
    },
  };
}

/** One request to a single subgraph, outside the public graph. */
export interface InternalRequest {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly operationName: string;
}

/**
 * Runs an operation on one subgraph directly, through the data source the gateway uses for it
 * (same headers, secret and response extensions), for the edge's internal fields, which are
 * `@inaccessible` in the public graph. Errors come back as the subgraph formatted them.
 */
export type InternalExecutor = (
  service: SubgraphName,
  request: InternalRequest,
  context: GatewayContext,
) => Promise<GatewayGraphQLResponse>;

export interface Gateway {
  readonly server: ApolloServer<GatewayContext>;
  /** The edge's internal operations, on the owning subgraph (docs/adr/0027-one-public-graph.md). */
  readonly internal: InternalExecutor;
  /** Streaming operations beside GraphQL, reached like the subgraphs' data sources (docs/adr/0006). */
  readonly streams: StreamSources;
  /** The supergraph's API schema once loaded (subscriptions extend it). */
  readonly apiSchema: () => GraphQLSchema | undefined;
  /**
   * Parses and validates the committed named operations once, now, and runs them for the
   * edge past Apollo Server's per-request work, with what `/graphql` answers (gateway/named-operations.ts).
   */
  prepare(operations: ReadonlyMap<string, string>): NamedOperationExecutor;
  stop(): Promise<void>;
}

/** Codes that may reach a client with their message; anything else is hidden as a 500. */
function isKnownCode(code: unknown): boolean {
  return typeof code === 'string' && code !== INTERNAL_CODE;
}

/** graphql-js words the token limit as a misspelt parse failure; clients get the limit named plainly. */
function clearTokenLimitMessage(message: string): string {
  const tokens = /Document contains more that (\d+) tokens/.exec(message);
  return tokens ? `Syntax Error: Token limit of ${tokens[1]} exceeded; send a shorter document.` : message;
}

/** How `/graphql` formats every error it answers (Apollo Server's `formatError`). */
export function formatGatewayError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = (error as { extensions?: Record<string, unknown> } | undefined)?.extensions ?? {};
    const http = original.http as { status?: number } | undefined;
    if (!isKnownCode(formatted.extensions?.code)) {
      if (formatted.extensions?.code !== INTERNAL_CODE) logger.error({ err: error }, 'unexpected gateway error');
      return {
        message: 'Internal server error',
        path: formatted.path,
        extensions: { code: INTERNAL_CODE, http: { status: 500 } },
      };
    }
    const { serviceName: _serviceName, ...extensions } = formatted.extensions ?? {};
    return {
      ...formatted,
      message: clearTokenLimitMessage(formatted.message),
      extensions: { ...extensions, ...(http?.status ? { http: { status: http.status } } : {}) },
    };
  };
}

/**
 * The Apollo Gateway on the committed supergraph, wrapped in Apollo Server with
 * graphql-armor limits, hidden field suggestions and operation metrics.
 */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  // @apollo/gateway 2.14 reports usage to Apollo unless told not to; this service reports nothing.
  process.env.APOLLO_TELEMETRY_DISABLED = '1';
  const sources = new Map<string, GraphQLDataSource<GatewayContext>>();
  const sourceOf = (name: string): GraphQLDataSource<GatewayContext> => {
    let source = sources.get(name);
    if (source) return source;
    const target = options.subgraphs[name as SubgraphName];
    if (target === undefined) throw new Error(`no target for subgraph ${name}`);
    source = counted(
      name,
      typeof target === 'string'
        ? new ForwardingRemoteDataSource(target, options.subgraphSecret, options.deduplicate, () =>
            options.metrics.subgraphFetchesMerged.inc({ subgraph: name }),
          )
        : new InProcessDataSource(target),
      options.metrics,
    );
    sources.set(name, source);
    return source;
  };
  const gateway = new ApolloGateway({
    supergraphSdl: options.supergraphSdl,
    // The supergraph's placeholder URLs are ignored: targets come from the configuration.
    buildService: ({ name }) => sourceOf(name),
  });
  const internal: InternalExecutor = (service, request, context) =>
    sourceOf(service).process({
      // `GraphQLDataSourceRequestKind.INCOMING_OPERATION`, which the package does not export.
      kind: 'incoming operation' as Extract<GraphQLDataSourceProcessOptions, { incomingRequestContext: unknown }>['kind'],
      request: { query: request.query, variables: request.variables, operationName: request.operationName },
      context,
      // Only a cache policy is read from it, and internal operations have none.
      incomingRequestContext: { context } as never,
    });
  let apiSchema: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate((loaded) => (apiSchema = loaded.apiSchema));
  const armor = new ApolloArmor(ARMOR_CONFIG).protect();
  const plugins: ApolloServerPlugin<GatewayContext>[] = [
    ...(armor.plugins as ApolloServerPlugin<GatewayContext>[]),
    useEdgeResponse(options.metrics),
    useLocalLandingPage(),
  ];
  const validationRules = [...armor.validationRules, KnownRootOperationRule];
  const parseOptions = { maxTokens: GATEWAY_LIMITS.maxTokens };
  const formatError = formatGatewayError(options.logger);
  const logger = {
    debug: (message: string) => options.logger.debug(message),
    info: (message: string) => options.logger.info(message),
    warn: (message: string) => options.logger.warn(message),
    error: (message: string) => options.logger.error(message),
  };
  const server = new ApolloServer<GatewayContext>({
    gateway,
    plugins,
    // A document past the token limit is a syntax error (400), like any other parse failure.
    parseOptions,
    validationRules,
    allowBatchedHttpRequests: false,
    // The process stops the gateway after its HTTP server has drained; Apollo's own handler
    // (on unless NODE_ENV=test) would stop it at the signal and fail the requests in flight.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: true,
    introspection: true,
    csrfPrevention: true,
    formatError,
    logger,
  });
  await server.start();
  return {
    server,
    internal,
    streams: createStreamSources(options.streamOwners ?? {}, options.subgraphs, options.metrics, options.subgraphSecret),
    apiSchema: () => apiSchema,
    prepare: (operations) => {
      if (!apiSchema) throw new Error('the gateway has not loaded its schema');
      return prepareNamedOperations({
        operations,
        schema: apiSchema,
        validationRules,
        parseOptions,
        executor: gateway.executor,
        formatError,
        suggestionMask: SUGGESTION_MASK,
        logger,
        metrics: options.metrics,
      });
    },
    stop: () => server.stop(),
  };
}
