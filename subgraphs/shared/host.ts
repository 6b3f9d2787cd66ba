import { execute, type ExecutionResult, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { DocumentCache } from './document-cache.js';
import type { Config } from '../../runtime/config.js';
import type { Logger } from '../../runtime/logger.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { RequestHeaders, SubgraphContext } from './context.js';
import { formatSubgraphError } from './format-error.js';
import { migrate, openOrm, type SubgraphOrm } from './orm.js';
import { OperationPipeline } from './contracts/pipeline.js';
import { QueueHub } from './queues/queue-hub.js';
import { openStream, type StreamHandler, type StreamOpening, type StreamRequest } from './streams.js';
import { buildSubgraph, serviceLookup, type HttpMount, type PublicOrigin, type SubgraphModule, type SubgraphRuntime } from './subgraph.js';

export interface SubgraphRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
}

export interface SubgraphResponse {
  readonly data?: ExecutionResult['data'];
  readonly errors?: readonly GraphQLFormattedError[];
  readonly extensions?: Record<string, unknown>;
}

/** A subgraph ready to execute operations, in this process or behind HTTP. */
export interface RunningSubgraph {
  readonly name: string;
  readonly schema: GraphQLSchema;
  readonly orm: SubgraphOrm;
  execute(request: SubgraphRequest, headers: RequestHeaders): Promise<SubgraphResponse>;
  /** Runs a named streaming operation with the same context construction as `execute`. */
  openStream(request: StreamRequest, headers: RequestHeaders, signal: AbortSignal): Promise<StreamOpening>;
  /** The module's non-GraphQL HTTP (`SubgraphModule.http`), for the process that serves it. */
  http(origin: PublicOrigin): readonly HttpMount[];
  close(): Promise<void>;
}

export interface StartSubgraphOptions {
  readonly config: Config;
  readonly databaseUrl: string;
  readonly logger: Logger;
  /** Where operation calls are counted (`/metrics`). */
  readonly metrics?: Pick<Metrics, 'operationCalls'> & Partial<Pick<Metrics, 'databaseQueries'>>;
  /** Where clients reach the deployment; by default `PUBLIC_BASE_URL` (reading it without one throws). */
  readonly origin?: PublicOrigin;
  /** Apply pending migrations first (default); off where another process of the same start has applied them. */
  readonly migrations?: boolean;
}

const configuredOrigin =
  (config: Config): PublicOrigin =>
  () => {
    if (!config.publicBaseUrl) throw new Error('the public origin is unknown here: set PUBLIC_BASE_URL');
    return config.publicBaseUrl;
  };

/** Opens the subgraph's database, applies its migrations and builds its schema. */
export async function startSubgraph(module: SubgraphModule, options: StartSubgraphOptions): Promise<RunningSubgraph> {
  const logger = options.logger.child({ subgraph: module.name });
  const queries = options.metrics?.databaseQueries;
  const orm = await openOrm(module.database, {
    databaseUrl: options.databaseUrl,
    logger,
    ...(queries ? { onQuery: () => queries.inc({ subgraph: module.name }) } : {}),
  });
  const queues = new QueueHub({
    consumers: options.config.queueConsumers,
    databaseUrl: options.databaseUrl,
    redisUrl: options.config.redisUrl,
    logger: logger.child({ component: 'queues' }),
  });
  try {
    if (options.migrations !== false) await migrate(orm, module.database, options.databaseUrl, logger);
    const origin = options.origin ?? configuredOrigin(options.config);
    const runtime: SubgraphRuntime = { config: options.config, orm, database: module.database, logger, queues, origin };
    const services = serviceLookup(`subgraph ${module.name}`, module.createServices(runtime));
    const bindings = module.bind(services, runtime);
    const pipeline = new OperationPipeline(module.contracts, bindings, (contract, outcome) =>
      options.metrics?.operationCalls.inc({ service: module.name, operation: contract.name, outcome }),
    );
    const contractRuntime = {
      pipeline,
      fields: new Map((bindings.fields ?? []).map((field) => [field.type, field] as const)),
      entities: new Map((bindings.entities ?? []).map((entity) => [entity.type, entity] as const)),
    };
    const schema = await buildSubgraph(module, () => contractRuntime);
    const documents = new DocumentCache(schema);
    const stream = (name: string): StreamHandler | undefined =>
      pipeline.hasStream(name)
        ? async function* (input, ctx, signal, body) {
            yield* await pipeline.openStream(name, ctx, (input ?? {}) as Record<string, unknown>, signal, body);
          }
        : undefined;
    await module.onReady?.(runtime, services, (contract, args, request) =>
      pipeline.run(contract, { ...subgraphContext(orm, logger, request.headers), em: request.em }, args),
    );
    await queues.start();
    return {
      name: module.name,
      schema,
      orm,
      execute: (request, headers) => executeSubgraph(schema, documents, orm, logger, request, headers),
      openStream: (request, headers, signal) => openStream(stream(request.name), request, subgraphContext(orm, logger, headers), signal),
      http: (origin) => module.http?.(services, runtime, origin) ?? [],
      async close() {
        await queues.close();
        await module.onClose?.(services);
        await orm.close(true);
      },
    };
  } catch (error) {
    await queues.close().catch(() => undefined);
    await orm.close(true).catch(() => undefined);
    throw error;
  }
}

/**
 * The context of one request, built from the forwarded headers alone, for operations and streams
 * alike. Its child logger is made on first use: most requests never log.
 */
function subgraphContext(orm: SubgraphOrm, logger: Logger, headers: RequestHeaders): SubgraphContext {
  const requestId = headers['x-request-id'] ?? 'internal';
  let child: Logger | undefined;
  return {
    em: orm.em.fork(),
    headers,
    requestId,
    clientIp: headers['x-client-ip'],
    get logger() {
      return (child ??= logger.child({ requestId }));
    },
    extensions: {},
  };
}

/** The one execution path of every subgraph: a forked EntityManager, then errors formatted once. */
async function executeSubgraph(
  schema: GraphQLSchema,
  documents: DocumentCache,
  orm: SubgraphOrm,
  logger: Logger,
  request: SubgraphRequest,
  headers: RequestHeaders,
): Promise<SubgraphResponse> {
  const context = subgraphContext(orm, logger, headers);
  const document = documents.document(request.query);
  const result: ExecutionResult = Array.isArray(document)
    ? { errors: document as readonly GraphQLError[] }
    : await execute({
        schema,
        document: document as Exclude<typeof document, readonly GraphQLError[]>,
        variableValues: request.variables ?? undefined,
        operationName: request.operationName ?? undefined,
        contextValue: context,
      });
  const extensions = Object.keys(context.extensions).length > 0 ? { extensions: context.extensions } : {};
  if (!result.errors?.length) return { data: result.data, ...extensions };
  return {
    data: result.data,
    errors: result.errors.map((error) => formatSubgraphError(error.toJSON(), error, context.logger)),
    ...extensions,
  };
}
