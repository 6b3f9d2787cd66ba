import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../runtime/logger.js';
import { SUBGRAPHS } from '../../../subgraphs/index.js';
import { migrate, openOrm } from '../../../subgraphs/shared/orm.js';
import { createTestDatabase } from '../../support/database.js';

describe('migrations', () => {
  it('apply exactly once when several instances start at the same time', async () => {
    const database = await createTestDatabase();
    const logger = createLogger('silent');
    const module = SUBGRAPHS.operations;
    const orms = await Promise.all(Array.from({ length: 4 }, () => openOrm(module.database, { databaseUrl: database.url, logger })));
    try {
      const applied = await Promise.all(orms.map((orm) => migrate(orm, module.database, database.url, logger)));
      expect(applied.flat()).toEqual(module.database.migrations.map((migration) => migration.migrationName));
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query<{ count: string }>('select count(*) from operations.mikro_orm_migrations');
      await client.end();
      expect(Number(rows[0]?.count)).toBe(module.database.migrations.length);
    } finally {
      await Promise.all(orms.map((orm) => orm.close(true)));
      await database.drop();
    }
  });
});
