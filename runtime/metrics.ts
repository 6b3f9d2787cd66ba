import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/** Every metric the process exports, on one registry served at `/metrics`. */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly graphqlOperations: Counter<'operation' | 'type' | 'outcome'>;
  /** Streaming operations (SSE chat, uploads) opened through the gateway, which Apollo's plugins never see. */
  readonly streamOperations: Counter<'operation' | 'outcome'>;
  /** Subgraph queries that joined an identical one in flight instead of being sent (`GRAPHQL_DEDUPLICATE`). */
  readonly subgraphFetchesMerged: Counter<'subgraph'>;
  /** Calls of each operation of each service, by outcome: `ok`, `replayed` (idempotent), `refused` (4xx), `failed`. */
  readonly operationCalls: Counter<'service' | 'operation' | 'outcome'>;
  /**
   * Requests the gateway sends each subgraph, by root: `entities` (`_entities`, an entity
   * fetch of a query plan) or `operation` (root fields).
   */
  readonly subgraphFetches: Counter<'subgraph' | 'root'>;
  /** SQL statements each subgraph sends PostgreSQL through its ORM connection (what DataLoader batching saves). */
  readonly databaseQueries: Counter<'subgraph'>;
  /** Registers a source of connection-pool figures for one subgraph. */
  addPool(subgraph: string, read: () => PoolStats | undefined): void;
}

/**
 * prom-client also serves three gauges named `*_total`, a suffix the exposition format
 * reserves for counters (`promtool check metrics` rejects them); their unsuffixed twins stay.
 */
function replaceMisnamedDefaults(registry: Registry): void {
  for (const name of ['handles', 'requests', 'resources']) registry.removeSingleMetric(`qantara_nodejs_active_${name}_total`);
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'qantara_' });
  replaceMisnamedDefaults(registry);
  const pools = new Map<string, () => PoolStats | undefined>();
  const poolGauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['subgraph'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [subgraph, read] of pools) {
          const stats = read();
          if (stats) this.set({ subgraph }, pick(stats));
        }
      },
    });
  poolGauge('qantara_db_pool_connections', 'Open connections in the PostgreSQL pool.', (s) => s.total);
  poolGauge('qantara_db_pool_idle_connections', 'Idle connections in the PostgreSQL pool.', (s) => s.idle);
  poolGauge('qantara_db_pool_waiting_requests', 'Queries waiting for a pooled connection.', (s) => s.waiting);
  return {
    registry,
    httpRequests: new Counter({
      name: 'qantara_http_requests_total',
      help: 'HTTP requests answered, by route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'qantara_http_request_duration_seconds',
      help: 'HTTP request latency, by route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    graphqlOperations: new Counter({
      name: 'qantara_graphql_operations_total',
      help: 'GraphQL operations executed by the gateway, by name, type and outcome.',
      labelNames: ['operation', 'type', 'outcome'],
      registers: [registry],
    }),
    streamOperations: new Counter({
      name: 'qantara_stream_operations_total',
      help: 'Streaming operations opened by the gateway, by name and outcome (opened or refused).',
      labelNames: ['operation', 'outcome'],
      registers: [registry],
    }),
    subgraphFetchesMerged: new Counter({
      name: 'qantara_subgraph_fetches_merged_total',
      help: 'Subgraph queries answered by an identical one already in flight instead of a call of their own, by subgraph.',
      labelNames: ['subgraph'],
      registers: [registry],
    }),
    operationCalls: new Counter({
      name: 'qantara_operation_calls_total',
      help: 'Calls of each operation (REST, GraphQL, MCP alike), by service, operation and outcome.',
      labelNames: ['service', 'operation', 'outcome'],
      registers: [registry],
    }),
    subgraphFetches: new Counter({
      name: 'qantara_subgraph_fetches_total',
      help: 'Requests of the gateway to each subgraph, by root: entities (_entities) or operation.',
      labelNames: ['subgraph', 'root'],
      registers: [registry],
    }),
    databaseQueries: new Counter({
      name: 'qantara_db_queries_total',
      help: 'SQL statements sent to PostgreSQL through each subgraph’s ORM connection.',
      labelNames: ['subgraph'],
      registers: [registry],
    }),
    addPool(subgraph, read) {
      pools.set(subgraph, read);
    },
  };
}
