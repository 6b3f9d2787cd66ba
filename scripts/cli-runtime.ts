import 'reflect-metadata';
import { cliDatabase } from '../runtime/cli-database.js';
import type { Config } from '../runtime/config.js';
import { configOrExit } from '../runtime/config-or-exit.js';
import { createLogger, type Logger } from '../runtime/logger.js';
import { libraryModule } from '../subgraphs/library/library.module.js';
import { createSearchEngine } from '../subgraphs/library/search/create-search-engine.js';
import type { SearchEngine } from '../subgraphs/library/search/search-engine.js';
import { migrate, openOrm, type SubgraphOrm } from '../subgraphs/shared/orm.js';

export interface LibraryCli {
  readonly config: Config;
  readonly logger: Logger;
  readonly orm: SubgraphOrm;
  readonly engine: SearchEngine;
  close(): Promise<void>;
}

/** The library's database and search engine for a command, configured exactly as the server is. */
export async function openLibraryCli(): Promise<LibraryCli> {
  const config = configOrExit();
  // Progress goes to the terminal; the JSON log keeps only warnings unless LOG_LEVEL says otherwise.
  const logger = createLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn', { role: 'cli' });
  const database = await cliDatabase(config, logger);
  const orm = await openOrm(libraryModule.database, { databaseUrl: database.url, logger, poolMax: 2 });
  await migrate(orm, libraryModule.database, database.url, logger);
  const engine = createSearchEngine(config, orm);
  return {
    config,
    logger,
    orm,
    engine,
    async close() {
      await engine.close?.();
      await orm.close(true);
      await database.release();
    },
  };
}
