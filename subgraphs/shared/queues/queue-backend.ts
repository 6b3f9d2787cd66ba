import { createPostgresBackend, Queue, runMigrations, Worker, type Processor, type QueueOptions, type WorkerOptions } from 'bullmq';
import pg from 'pg';

/**
 * Where BullMQ keeps its jobs: PostgreSQL by default — the service's own database, schema
 * `bullmq`, through the backend BullMQ ships (`createPostgresBackend`) — or Redis when
 * `REDIS_URL` is set (BullMQ's default backend; it needs the `ioredis` package). Queues
 * and workers are built here so nothing else knows which one runs.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- BullMQ's classes are generic over the backend chosen at run time. */
export type AnyQueue = Queue<any, any, string, any, any, string, any, any>;
export type AnyWorker = Worker<any, any, string, any, any, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

export const QUEUE_SCHEMA = 'bullmq';

export interface QueueBackend {
  readonly kind: 'postgres' | 'redis';
  /** Creates BullMQ's tables (PostgreSQL) once; safe to call from many processes at once. */
  prepare(): Promise<void>;
  queue(name: string, options: Omit<QueueOptions, 'connection'>): AnyQueue;
  worker(name: string, processor: Processor, options: Omit<WorkerOptions, 'connection'>): AnyWorker;
  close(): Promise<void>;
}

/** PostgreSQL: one pool per process for every queue and worker of a subgraph; each worker keeps one connection for LISTEN. */
class PostgresBackend implements QueueBackend {
  readonly kind = 'postgres';
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string, poolMax: number) {
    // BullMQ's SQL names its objects unqualified: a pool we build must put its schema first.
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax, options: `-c search_path=${QUEUE_SCHEMA}` });
    this.pool.on('error', () => undefined);
  }

  async prepare(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await runMigrations(client, QUEUE_SCHEMA);
    } finally {
      client.release();
    }
  }

  queue(name: string, options: Omit<QueueOptions, 'connection'>): AnyQueue {
    return new Queue(name, { ...options, connection: this.pool }, createPostgresBackend) as AnyQueue;
  }

  worker(name: string, processor: Processor, options: Omit<WorkerOptions, 'connection'>): AnyWorker {
    return new Worker(name, processor, { ...options, connection: this.pool }, createPostgresBackend) as unknown as AnyWorker;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * Redis: BullMQ's own backend; `maxRetriesPerRequest: null` as BullMQ requires for workers.
 * Keys are prefixed with the database's name, so deployments (and test runs) sharing one
 * Redis keep their queues apart.
 */
class RedisBackend implements QueueBackend {
  readonly kind = 'redis';
  private readonly connection: Record<string, unknown>;

  constructor(
    redisUrl: string,
    private readonly prefix: string,
  ) {
    const url = new URL(redisUrl);
    this.connection = {
      host: url.hostname,
      port: Number(url.port || 6379),
      username: url.username ? decodeURIComponent(url.username) : undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
      db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
      tls: url.protocol === 'rediss:' ? {} : undefined,
      maxRetriesPerRequest: null,
    };
  }

  async prepare(): Promise<void> {}

  queue(name: string, options: Omit<QueueOptions, 'connection'>): AnyQueue {
    return new Queue(name, { ...options, prefix: this.prefix, connection: this.connection }) as AnyQueue;
  }

  worker(name: string, processor: Processor, options: Omit<WorkerOptions, 'connection'>): AnyWorker {
    return new Worker(name, processor, { ...options, prefix: this.prefix, connection: this.connection }) as unknown as AnyWorker;
  }

  async close(): Promise<void> {}
}

export interface QueueBackendOptions {
  readonly databaseUrl: string;
  readonly redisUrl: string | undefined;
  /** Connections of the PostgreSQL pool (each worker holds one for LISTEN). */
  readonly poolMax: number;
}

export function createQueueBackend(options: QueueBackendOptions): QueueBackend {
  if (!options.redisUrl) return new PostgresBackend(options.databaseUrl, options.poolMax);
  const database = decodeURIComponent(new URL(options.databaseUrl).pathname.slice(1)) || 'qantara';
  return new RedisBackend(options.redisUrl, `qantara:${database}`);
}
