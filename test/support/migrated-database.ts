import { createLogger } from '../../runtime/logger.js';
import { migrate, openOrm, type SubgraphDatabase, type SubgraphOrm } from '../../subgraphs/shared/orm.js';
import { createTestDatabase } from './database.js';

export interface MigratedDatabase {
  readonly orm: SubgraphOrm;
  readonly url: string;
  /** Closes the ORM and drops the database. */
  close(): Promise<void>;
}

/** A fresh database with one subgraph's schema migrated into it, for tests below HTTP; `poolMax` caps the ORM's pool. */
export async function migratedDatabase(schema: SubgraphDatabase, { poolMax }: { poolMax?: number } = {}): Promise<MigratedDatabase> {
  const logger = createLogger('silent');
  const database = await createTestDatabase();
  const orm = await openOrm(schema, { databaseUrl: database.url, logger, poolMax }).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  try {
    await migrate(orm, schema, database.url, logger);
  } catch (error) {
    await orm.close(true);
    await database.drop();
    throw error;
  }
  return {
    orm,
    url: database.url,
    async close() {
      await orm.close(true);
      await database.drop();
    },
  };
}
