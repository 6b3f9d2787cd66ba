import pg from 'pg';
import { inject, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { startStack } from '../support/stack.js';

const SYSTEM_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The machine's own PostgreSQL when one answers on 127.0.0.1:5432, else the run's server. */
async function externalServer(): Promise<string> {
  const client = new pg.Client({ connectionString: SYSTEM_SERVER, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return SYSTEM_SERVER;
  } catch {
    return inject('postgresUrl');
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('external DATABASE_URL', () => {
  it('runs every subgraph on the given server, each in its own schema with its migrations', async () => {
    const database = await createTestDatabase(await externalServer());
    try {
      await using stack = await startStack({ DATABASE_URL: database.url });
      const response = await stack.fetch('/api/v1/health/ready');
      expect(response.status).toBe(200);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ schema: string }>(
          `select table_schema as schema from information_schema.tables where table_name = 'mikro_orm_migrations' order by 1`,
        );
        expect(rows.map((row) => row.schema)).toEqual(['library', 'operations', 'research']);
      } finally {
        await client.end();
      }
    } finally {
      await database.drop();
    }
  });
});
