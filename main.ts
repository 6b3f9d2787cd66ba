import 'reflect-metadata';
import { ConfigError, loadConfig, type Config } from './runtime/config.js';
import { createLogger } from './runtime/logger.js';
import { startSystem } from './runtime/system.js';

process.env.APOLLO_TELEMETRY_DISABLED = '1';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`qantara: invalid configuration: ${error.message}\n`);
  process.exit(1);
}

const logger = createLogger(config.logLevel, { role: config.role });
try {
  const system = await startSystem(config, logger);
  let signals = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    logger.info({ signal }, 'signal received');
    system.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
} catch (error) {
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}
