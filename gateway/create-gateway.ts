import { ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
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
import { ARMOR_CONFIG, GATEWAY_LIMITS } from './limits.js';
import { KnownRootOperationRule } from './root-operation-rule.js';
import { useEdgeHeaders } from './plugins/use-edge-headers.js';
import { useOperationMetrics } from './plugins/use-operation-metrics.js';
import { useOperationResolution } from './plugins/use-operation-resolution.js';
import { usePartialResultStatus } from './plugins/use-partial-result-status.js';
import { createStreamSources, type StreamSources } from './stream-sources.js';

/** Where each subgraph runs: in this process, or behind an HTTP URL. */
export type SubgraphTargets = Readonly<Record<SubgraphName, RunningSubgraph | string>>;

export interface GatewayOptions {
  readonly supergraphSdl: string;
  readonly subgraphs: SubgraphTargets;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Sent to remote subgraphs, which answer only requests that carry it (`SUBGRAPH_SECRET`). */
  readonly subgraphSecret?: string;
  /** Which subgraph declares each streaming operation (`streamOwners(SUBGRAPHS)`); none by default. */
  readonly streamOwners?: Readonly<Record<string, SubgraphName>>;
}

export interface Gateway {
  readonly server: ApolloServer<GatewayContext>;
  /** Streaming operations beside GraphQL, reached like the subgraphs' data sources (docs/adr/0006). */
  readonly streams: StreamSources;
  /** The supergraph's API schema once loaded (subscriptions extend it). */
  readonly apiSchema: () => GraphQLSchema | undefined;
  stop(): Promise<void>;
}

/** Codes that may reach a client with their message; anything else is hidden as a 500. */
function isKnownCode(code: unknown): boolean {
  return typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR';
}

/** graphql-js words the token limit as a misspelt parse failure; clients get the limit named plainly. */
function clearTokenLimitMessage(message: string): string {
  const tokens = /Document contains more that (\d+) tokens/.exec(message);
  return tokens ? `Syntax Error: Token limit of ${tokens[1]} exceeded; send a shorter document.` : message;
}

function formatGatewayError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = (error as { extensions?: Record<string, unknown> } | undefined)?.extensions ?? {};
    const http = original.http as { status?: number } | undefined;
    if (!isKnownCode(formatted.extensions?.code)) {
      if (formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') logger.error({ err: error }, 'unexpected gateway error');
      return {
        message: 'Internal server error',
        path: formatted.path,
        extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } },
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
  const gateway = new ApolloGateway({
    supergraphSdl: options.supergraphSdl,
    // The supergraph's placeholder URLs are ignored: targets come from the configuration.
    buildService({ name }): GraphQLDataSource<GatewayContext> {
      const target = options.subgraphs[name as SubgraphName];
      if (target === undefined) throw new Error(`no target for subgraph ${name}`);
      return typeof target === 'string' ? new ForwardingRemoteDataSource(target, options.subgraphSecret) : new InProcessDataSource(target);
    },
  });
  let apiSchema: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate((loaded) => (apiSchema = loaded.apiSchema));
  const armor = new ApolloArmor(ARMOR_CONFIG).protect();
  const plugins: ApolloServerPlugin<GatewayContext>[] = [
    ...(armor.plugins as ApolloServerPlugin<GatewayContext>[]),
    useOperationResolution(),
    useOperationMetrics(options.metrics),
    usePartialResultStatus(),
    useEdgeHeaders(),
    useLocalLandingPage(),
  ];
  const server = new ApolloServer<GatewayContext>({
    gateway,
    plugins,
    // A document past the token limit is a syntax error (400), like any other parse failure.
    parseOptions: { maxTokens: GATEWAY_LIMITS.maxTokens },
    validationRules: [...armor.validationRules, KnownRootOperationRule],
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: true,
    introspection: true,
    csrfPrevention: true,
    formatError: formatGatewayError(options.logger),
    logger: {
      debug: (message) => options.logger.debug(message),
      info: (message) => options.logger.info(message),
      warn: (message) => options.logger.warn(message),
      error: (message) => options.logger.error(message),
    },
  });
  await server.start();
  return {
    server,
    streams: createStreamSources(options.streamOwners ?? {}, options.subgraphs, options.metrics, options.subgraphSecret),
    apiSchema: () => apiSchema,
    stop: () => server.stop(),
  };
}
