import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from './database.js';

describe('test database helper', () => {
  it('creates a fresh database that accepts queries', async () => {
    const db = await createTestDatabase();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ name: string }>('select current_database() as name');
    await client.end();
    await db.drop();
    expect(rows[0]?.name).toBe(db.name);
  });
});
