import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { join } from 'node:path';
import type { SubgraphTargets } from '../gateway/create-gateway.js';
import type { SubscriptionServer } from '../gateway/subscriptions/subscription-server.js';
import { loadSubgraph } from '../subgraphs/load-subgraph.js';
import type { RunningSubgraph } from '../subgraphs/shared/host.js';
import type { PublicOrigin } from '../subgraphs/shared/subgraph.js';
import { SUBGRAPH_NAMES, type Config, type SubgraphName } from '../runtime/config.js';
import { logBanner, startupBanner } from '../runtime/banner.js';
import { DataDirInUseError, startEmbeddedPostgres, type EmbeddedDatabase } from '../runtime/embedded-postgres.js';
import { trustProxy } from '../runtime/http/client-address.js';
import { listen, type Listening } from './listen.js';
import type { Logger } from '../runtime/logger.js';
import { createMetrics, type Metrics } from '../runtime/metrics.js';

export const SUPERGRAPH_PATH = join(import.meta.dirname, '..', 'schema', 'supergraph.graphql');

/** A start-up that cannot go on for a reason the operator can act on; its message says all there is to say. */
export class StartupRefusal extends Error {
  override name = 'StartupRefusal';
}

/** A started process of any role. */
export interface System {
  readonly port: number;
  readonly url: string;
  /** The address bound, as its `listening` line names it. */
  readonly bound: { readonly address: string; readonly port: number; readonly url: string };
  readonly databaseUrl: string | undefined;
  readonly metrics: Metrics;
  stop(): Promise<void>;
}

/** How a process of several HTTP workers (`WEB_CONCURRENCY`, server/workers.ts) starts one of them. */
export interface WorkerStart {
  /** 1 to `WEB_CONCURRENCY`; worker 1 runs the queue consumers, migrations and first-start jobs, and prints the banner. */
  readonly index: number;
  /** The database the primary process started (embedded PostgreSQL), or undefined with `DATABASE_URL`. */
  readonly databaseUrl: string | undefined;
}

/** Stops what was started, newest first, and never throws. */
class Stack {
  private readonly steps: Array<{ name: string; stop: () => Promise<unknown> }> = [];
  constructor(private readonly logger: Logger) {}

  push(name: string, stop: () => Promise<unknown>): void {
    this.steps.push({ name, stop });
  }

  async unwind(): Promise<void> {
    for (const step of this.steps.reverse()) {
      try {
        await step.stop();
      } catch (error) {
        this.logger.warn({ err: error, step: step.name }, 'error while stopping');
      }
    }
    this.steps.length = 0;
  }
}

async function database(config: Config, logger: Logger, stack: Stack, worker?: WorkerStart): Promise<string> {
  if (config.databaseUrl) return config.databaseUrl;
  if (worker?.databaseUrl) return worker.databaseUrl;
  const embedded = await startEmbedded(config, logger);
  stack.push('embedded postgres', () => embedded.stop());
  return embedded.url;
}

/** The embedded PostgreSQL under `DATA_DIR`; a directory another running Qantara uses is refused. */
export async function startEmbedded(config: Config, logger: Logger): Promise<EmbeddedDatabase> {
  const embedded = await startEmbeddedPostgres(join(config.dataDir, 'postgres'), logger).catch((error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    throw new StartupRefusal(
      `DATA_DIR ${config.dataDir} is in use by PostgreSQL pid ${error.pid} — another Qantara running (pid ${error.owner})?`,
    );
  });
  logger.info({ port: embedded.port }, 'embedded PostgreSQL started');
  return embedded;
}

async function subgraphs(
  names: readonly SubgraphName[],
  config: Config,
  databaseUrl: string,
  logger: Logger,
  metrics: Metrics,
  stack: Stack,
  origin: PublicOrigin,
  migrations = true,
) {
  const { startSubgraph } = await import('../subgraphs/shared/host.js');
  const running: Partial<Record<SubgraphName, RunningSubgraph>> = {};
  for (const name of names) {
    const subgraph = await startSubgraph(await loadSubgraph(name), { config, databaseUrl, logger, metrics, origin, migrations });
    stack.push(`subgraph ${name}`, () => subgraph.close());
    running[name] = subgraph;
    const pool = (await subgraph.orm.em.getConnection().getNativeClient()) as {
      totalCount: number;
      idleCount: number;
      waitingCount: number;
    };
    metrics.addPool(name, () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  }
  return running;
}

/**
 * The origin clients reach the process at, for what must name itself (the OpenID issuer):
 * `PUBLIC_BASE_URL`, else the address the server is bound to — known once it listens, never
 * taken from a request's `Host`. A wildcard bind (`0.0.0.0`, `::`) is named `localhost`.
 */
function publicOrigin(config: Config): { origin: PublicOrigin; listening(http: Listening): void } {
  let bound: string | undefined;
  return {
    origin() {
      const origin = config.publicBaseUrl ?? bound;
      if (!origin) throw new Error('the public origin is known once the server listens');
      return origin;
    },
    listening(http) {
      const { address, port } = http.server.address() as AddressInfo;
      const host = ['0.0.0.0', '::', ''].includes(address) ? 'localhost' : address.includes(':') ? `[${address}]` : address;
      bound = `http://${host}:${port}`;
    },
  };
}

function finish(
  config: Config,
  logger: Logger,
  stack: Stack,
  http: Listening,
  metrics: Metrics,
  databaseUrl: string | undefined,
  subscriptions?: SubscriptionServer,
  worker?: WorkerStart,
): System {
  let stopping: Promise<void> | undefined;
  const url = `http://127.0.0.1:${http.port}`;
  // The role is already bound on the logger; the line names the address actually bound. A
  // worker's line is its own: the primary says `listening` once every worker does.
  const { address } = http.server.address() as AddressInfo;
  const bound = { address, port: http.port, url: `http://${address.includes(':') ? `[${address}]` : address}:${http.port}` };
  if (worker) logger.info({ ...bound, pid: process.pid }, 'worker listening');
  else logger.info(bound, 'listening');
  return {
    port: http.port,
    url,
    bound,
    databaseUrl,
    metrics,
    stop() {
      stopping ??= (async () => {
        logger.info('shutting down');
        // WebSocket clients are told the server goes away before the HTTP server drains.
        await subscriptions?.close().catch((error: unknown) => logger.warn({ err: error }, 'error while closing subscriptions'));
        await http.close(config.shutdownTimeoutMs);
        await stack.unwind();
        logger.info('stopped');
      })();
      return stopping;
    },
  };
}

/** Names the HTTP worker that answered, on every answer and WebSocket upgrade, when there are several. */
const WORKER_HEADER = 'Qantara-Worker';

function workerHeader(index: number): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set(WORKER_HEADER, String(index));
    await next();
  };
}

/**
 * Starts the process for its role: everything in one process (`all`), the
 * gateway alone against remote subgraphs, one subgraph over HTTP, or a worker.
 * The gateway's and each subgraph's code is imported by the roles that run it only.
 */
export async function startSystem(config: Config, logger: Logger, worker?: WorkerStart): Promise<System> {
  const stack = new Stack(logger);
  const metrics = createMetrics();
  try {
    if (config.role.startsWith('subgraph:')) {
      const name = config.role.slice('subgraph:'.length) as SubgraphName;
      const databaseUrl = await database(config, logger, stack);
      const { createSubgraphApp } = await import('./subgraph-server.js');
      const served = publicOrigin(config);
      const running = await subgraphs([name], config, databaseUrl, logger, metrics, stack, served.origin);
      const app = createSubgraphApp(running[name]!, metrics, config.subgraphSecret, running[name]!.http(served.origin));
      trustProxy(app, config.trustProxy);
      const http = await listen(app, config.port, config.host);
      served.listening(http);
      return finish(config, logger, stack, http, metrics, databaseUrl);
    }
    if (config.role === 'worker') {
      const databaseUrl = await database(config, logger, stack);
      const served = publicOrigin(config);
      await subgraphs(SUBGRAPH_NAMES, config, databaseUrl, logger, metrics, stack, served.origin);
      const { createWorkerApp } = await import('./subgraph-server.js');
      const http = await listen(createWorkerApp(metrics), config.port, config.host);
      served.listening(http);
      return finish(config, logger, stack, http, metrics, databaseUrl);
    }
    let databaseUrl: string | undefined;
    let targets: SubgraphTargets;
    const served = publicOrigin(config);
    // Behind a separate gateway, the reverse proxy routes the subgraphs' mounts (`/oidc`) to their processes.
    let mounts: ReturnType<RunningSubgraph['http']> = [];
    if (config.role === 'gateway') {
      targets = config.subgraphUrls as SubgraphTargets;
    } else {
      databaseUrl = await database(config, logger, stack, worker);
      // Worker 1 has migrated before the others start; a restarted worker 1 migrates again (a no-op under the lock).
      const first = (worker?.index ?? 1) === 1;
      const running = await subgraphs(SUBGRAPH_NAMES, config, databaseUrl, logger, metrics, stack, served.origin, first);
      targets = running as SubgraphTargets;
      mounts = SUBGRAPH_NAMES.flatMap((name) => running[name]!.http(served.origin));
    }
    const [{ createGateway }, { createApp }, { attachSubscriptions }, { streamOwners, SUBSCRIPTIONS }] = await Promise.all([
      import('../gateway/create-gateway.js'),
      import('./app.js'),
      import('../gateway/subscriptions/subscription-server.js'),
      import('../contracts/registry.js'),
    ]);
    const gateway = await createGateway({
      supergraphSdl: readFileSync(SUPERGRAPH_PATH, 'utf8'),
      subgraphs: targets,
      logger,
      metrics,
      subgraphSecret: config.subgraphSecret,
      deduplicate: config.graphqlDeduplicate,
      streamOwners: streamOwners(),
    });
    stack.push('gateway', () => gateway.stop());
    const app = createApp({
      server: gateway.server,
      prepare: gateway.prepare,
      internal: gateway.internal,
      apiSchema: gateway.apiSchema,
      streams: gateway.streams,
      logger,
      metrics,
      accessLogSample: config.accessLogSample,
      declaredErrorsLog: config.declaredErrorsLog,
      publicBaseUrl: config.publicBaseUrl,
      siteBaseUrl: config.siteBaseUrl,
      apiBaseUrl: config.apiBaseUrl,
      boundOrigin: served.origin,
      mcpAllowedOrigins: config.mcpAllowedOrigins,
      corsOrigins: config.corsOrigins,
      mounts,
      origin: served.origin,
      identity: config,
    });
    trustProxy(app, config.trustProxy);
    // Which worker answered, first of all middleware so every answer carries it (`app.use` would append).
    if (worker) app.middleware.unshift(workerHeader(worker.index));
    const http = await listen(app, config.port, config.host);
    served.listening(http);
    const subscriptions = attachSubscriptions({
      server: http.server,
      apollo: gateway.server,
      apiSchema: gateway.apiSchema,
      subscriptions: SUBSCRIPTIONS,
      databaseUrl: databaseUrl ?? config.databaseUrl,
      logger,
      upgradeHeaders: worker ? { [WORKER_HEADER]: String(worker.index) } : undefined,
    });
    const system = finish(config, logger, stack, http, metrics, databaseUrl, subscriptions, worker);
    if (worker && worker.index !== 1) return system;
    // The demo data is made by the subgraphs this process runs; a separate gateway does not know of it.
    const demo = config.role === 'all';
    const demoEmails =
      demo && config.demoOperations ? (await import('../subgraphs/operations/demo/first-start.js')).demoEmails() : undefined;
    logBanner(logger, startupBanner({ origin: served.origin(), demoEmails, demoResearch: demo && config.demoResearch }));
    return system;
  } catch (error) {
    await stack.unwind();
    throw error;
  }
}
