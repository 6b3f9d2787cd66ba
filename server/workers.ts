import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../runtime/config.js';
import type { EmbeddedDatabase } from '../runtime/embedded-postgres.js';
import type { Logger } from '../runtime/logger.js';
import { StartupRefusal, startEmbedded, type WorkerStart } from './system.js';

/**
 * Several HTTP workers on one port (`WEB_CONCURRENCY` > 1, ADR 0043). The primary process
 * loads no gateway or subgraph code: it starts embedded PostgreSQL when there is no `DATABASE_URL`,
 * forks worker 1 (migrations, first-start jobs, queue consumers, the banner), then the others
 * once it listens; node:cluster hands connections to them in turn. A worker that dies is forked
 * again after a pause that doubles with each exit; five exits of one worker within a minute are
 * a crash loop that stops everything. SIGTERM or SIGINT drains every worker, then stops the database.
 */

/** What the primary tells a worker through its environment. */
const WORKER_INDEX = 'QANTARA_WORKER';
const WORKER_DATABASE_URL = 'QANTARA_WORKER_DATABASE_URL';

const CRASH_LOOP = { exits: 5, withinMs: 60_000 } as const;
const RESTART_PAUSE_MS = { first: 500, max: 15_000 } as const;

/** A worker's message to the primary once it serves. */
interface Listening {
  readonly type: 'qantara:listening';
  readonly address: string;
  readonly port: number;
  readonly url: string;
}

/** This process's part when it is a forked worker, else undefined. */
export function workerStart(): WorkerStart | undefined {
  if (!cluster.isWorker) return undefined;
  return { index: Number(process.env[WORKER_INDEX]), databaseUrl: process.env[WORKER_DATABASE_URL] || undefined };
}

/** A worker's configuration: queue consumers run in worker 1 only (if the deployment runs them here at all). */
export function workerConfig(config: Config, worker: WorkerStart): Config {
  return worker.index === 1 ? config : { ...config, queueConsumers: false };
}

/** Tells the primary this worker serves, with the address its `listening` line names. */
export function reportListening(bound: { address: string; port: number; url: string }): void {
  const message: Listening = { type: 'qantara:listening', ...bound };
  process.send?.(message);
}

export interface Primary {
  /** Resolves once every worker listens; rejects when one cannot start. */
  readonly started: Promise<void>;
  /** Drains every worker, then stops the database; never throws. Resolves true when all stopped cleanly. */
  stop(): Promise<boolean>;
}

class Slot {
  worker: Worker | undefined;
  readonly exits: number[] = [];
  restartTimer: NodeJS.Timeout | undefined;
  constructor(readonly index: number) {}
}

export function startPrimary(config: Config, logger: Logger): Primary {
  let embedded: EmbeddedDatabase | undefined;
  let stopping = false;
  /** Until every worker has started once, a worker's exit fails the start rather than being restarted. */
  let serving = false;
  let stopped: Promise<boolean> | undefined;
  const slots = Array.from({ length: config.webConcurrency }, (_, index) => new Slot(index + 1));

  const fork = (slot: Slot, databaseUrl: string | undefined): Promise<Listening> => {
    const worker = cluster.fork({ [WORKER_INDEX]: String(slot.index), [WORKER_DATABASE_URL]: databaseUrl ?? '' });
    slot.worker = worker;
    const listening = new Promise<Listening>((resolve, reject) => {
      const onMessage = (message: Listening) => {
        if (message?.type !== 'qantara:listening') return;
        worker.off('exit', onEarlyExit);
        resolve(message);
      };
      const onEarlyExit = (code: number | null, signal: string | null) => {
        worker.off('message', onMessage);
        // The worker's own line says why; this one says which.
        reject(new StartupRefusal(`worker ${slot.index} exited during start-up (${signal ?? `exit ${code}`})`));
      };
      worker.on('message', onMessage);
      worker.once('exit', onEarlyExit);
    });
    worker.once('exit', (code, signal) => {
      if (slot.worker === worker) slot.worker = undefined;
      if (stopping || !serving) return;
      restart(slot, databaseUrl, code, signal);
    });
    return listening;
  };

  const restart = (slot: Slot, databaseUrl: string | undefined, code: number | null, signal: string | null): void => {
    const now = Date.now();
    slot.exits.push(now);
    while (slot.exits.length > 0 && slot.exits[0]! < now - CRASH_LOOP.withinMs) slot.exits.shift();
    if (slot.exits.length >= CRASH_LOOP.exits) {
      logger.fatal(
        { worker: slot.index, code, signal, exits: slot.exits.length },
        `worker ${slot.index} is crash-looping (${slot.exits.length} exits within ${CRASH_LOOP.withinMs / 1000} s): stopping`,
      );
      void stop().then(() => process.exit(1));
      return;
    }
    const pause = Math.min(RESTART_PAUSE_MS.first * 2 ** (slot.exits.length - 1), RESTART_PAUSE_MS.max);
    logger.error({ worker: slot.index, code, signal, restartInMs: pause }, `worker ${slot.index} exited; starting it again`);
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = undefined;
      if (stopping) return;
      fork(slot, databaseUrl).then(
        () => logger.info({ worker: slot.index }, `worker ${slot.index} started again`),
        // Its exit has already been counted by the handler above, which restarts it or stops everything.
        () => undefined,
      );
    }, pause);
  };

  const started = (async () => {
    let databaseUrl: string | undefined;
    if (!config.databaseUrl) {
      embedded = await startEmbedded(config, logger);
      databaseUrl = embedded.url;
    }
    if (stopping) throw new Error('stopped during start-up');
    // Worker 1 migrates and runs the first-start jobs alone; the others start once it serves.
    const [first] = slots;
    const bound = await fork(first!, databaseUrl);
    if (stopping) throw new Error('stopped during start-up');
    await Promise.all(slots.slice(1).map((slot) => fork(slot, databaseUrl)));
    serving = true;
    logger.info({ address: bound.address, port: bound.port, url: bound.url, workers: slots.length }, 'listening');
  })();

  const stop = (): Promise<boolean> => {
    stopping = true;
    stopped ??= (async () => {
      logger.info({ workers: slots.length }, 'shutting down');
      let clean = true;
      await Promise.all(
        slots.map(async (slot) => {
          clearTimeout(slot.restartTimer);
          const worker = slot.worker;
          if (!worker || worker.isDead()) return;
          const exited = new Promise<void>((resolve) =>
            worker.once('exit', (code, signal) => {
              if (code !== 0) {
                clean = false;
                logger.error({ worker: slot.index, code, signal }, `worker ${slot.index} did not stop cleanly`);
              }
              resolve();
            }),
          );
          // Each worker drains within the shutdown grace; one that hangs past it is killed.
          const killer = setTimeout(() => worker.process.kill('SIGKILL'), config.shutdownTimeoutMs + 20_000);
          worker.process.kill('SIGTERM');
          await exited;
          clearTimeout(killer);
        }),
      );
      await started.catch(() => undefined);
      try {
        await embedded?.stop();
      } catch (error) {
        clean = false;
        logger.error({ err: error }, 'error while stopping the embedded PostgreSQL');
      }
      logger.info('stopped');
      return clean;
    })();
    return stopped;
  };

  return { started, stop };
}
