import 'reflect-metadata';
import { configOrExit } from './runtime/config-or-exit.js';
import { createLogger } from './runtime/logger.js';
import { StartupRefusal, startSystem, type System } from './server/system.js';
import { reportListening, startPrimary, workerConfig, workerStart } from './server/workers.js';

const loaded = configOrExit();
const worker = workerStart();
const config = worker ? workerConfig(loaded, worker) : loaded;
const primary = !worker && config.webConcurrency > 1;

const logger = createLogger(config.logLevel, worker ? { role: config.role, worker: worker.index } : { role: config.role });

interface Started {
  stop(): Promise<boolean | void>;
}

async function stop(): Promise<never> {
  try {
    const system = await starting.catch(() => undefined);
    const clean = await system?.stop();
    process.exit(clean === false ? 1 : 0);
  } catch (error) {
    logger.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}

// Handlers are in place before start-up begins, so a signal during start-up stops
// cleanly too. npm and process managers relay the terminal's signal, so the same
// signal often arrives twice at once; only one a second or more later forces exit.
let firstSignalAt: number | undefined;
function onSignal(signal: NodeJS.Signals): void {
  if (firstSignalAt !== undefined) {
    if (Date.now() - firstSignalAt < 1000) return;
    logger.warn({ signal }, 'second signal: exiting at once');
    process.exit(1);
  }
  firstSignalAt = Date.now();
  logger.info({ signal }, 'signal received');
  void stop();
}
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);

async function start(): Promise<Started> {
  if (primary) {
    const workers = startPrimary(config, logger);
    // A primary whose workers cannot start stops what it started before saying why.
    await workers.started.catch(async (error: unknown) => {
      await workers.stop();
      throw error;
    });
    return workers;
  }
  const system: System = await startSystem(config, logger, worker);
  if (worker) reportListening(system.bound);
  return system;
}

// Signals are handled from the next tick on, by which time `starting` is set.
const starting: Promise<Started> = start();
try {
  await starting;
} catch (error) {
  // Stopped by a signal during start-up (the workers stop with it): `stop` ends the process.
  if (firstSignalAt === undefined) {
    // One line that says why, at any log level; the stack only where the failure is not one the operator can read.
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof StartupRefusal) logger.fatal(`start-up failed: ${reason}`);
    else logger.fatal({ err: error }, `start-up failed: ${reason}`);
    process.exit(1);
  }
}
