import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../../runtime/config.js';
import { libraryModule } from '../../../../subgraphs/library/library.module.js';
import { PostgresSearchEngine } from '../../../../subgraphs/library/search/postgres-engine.js';
import { startSubgraph, type RunningSubgraph } from '../../../../subgraphs/shared/host.js';
import { createTestDatabase } from '../../../support/database.js';
import { FIXTURE, importFile, silentLogger } from '../../../support/library-content.js';

const ADMIN = 'catalog-batching-admin-token';
let subgraph: RunningSubgraph;
let drop: () => Promise<void>;
let key: string;

async function run(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = { authorization: `Bearer ${key}` },
) {
  const response = await subgraph.execute({ query, variables }, headers);
  expect(response.errors).toBeUndefined();
  return response.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** SQL statements a function sends, counted where every MikroORM query passes (raw or not). */
async function statements(work: () => Promise<unknown>): Promise<number> {
  const connection = subgraph.orm.em.getConnection();
  const spy = vi.spyOn(connection, 'executeQuery');
  try {
    await work();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  const config = loadConfig({ DATABASE_URL: database.url, DEMO_LIBRARY: 'false', ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'silent' });
  subgraph = await startSubgraph(libraryModule, { config, databaseUrl: database.url, logger: silentLogger });
  const issued = await run(
    'mutation { libraryAdminCreateKey(email: "batch@example.org", plan: "unlimited") { key } }',
    {},
    { 'x-admin-token': ADMIN },
  );
  key = issued.libraryAdminCreateKey.key;
});
afterAll(async () => {
  await subgraph?.close();
  await drop?.();
});

const BOOKS_WITH_PARTS = `query ($limit: Int) { libraryBooks(limit: $limit) { total items { id title parts(limit: 3) { index title depth } } } }`;

describe('GraphQL catalog batching', () => {
  it('runs a constant number of SQL statements for books { parts }, whatever the number of books', async () => {
    await importFile(subgraph.orm.em.fork(), new PostgresSearchEngine(subgraph.orm), 'jsonl', FIXTURE.pages);
    const withThree = await statements(() => run(BOOKS_WITH_PARTS, { limit: 20 }));
    const one = await statements(() => run(BOOKS_WITH_PARTS, { limit: 1 }));
    await importFile(subgraph.orm.em.fork(), new PostgresSearchEngine(subgraph.orm), 'openiti', FIXTURE.openiti);
    let data: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any
    const withFour = await statements(async () => {
      data = await run(BOOKS_WITH_PARTS, { limit: 20 });
    });
    expect(data.libraryBooks.total).toBe(4);
    expect(data.libraryBooks.items.every((book: { parts: unknown[] }) => book.parts.length > 0)).toBe(true);
    expect(withThree).toBeGreaterThanOrEqual(2);
    expect(withFour).toBe(withThree);
    expect(one).toBe(withThree);
  });

  it('windows nested parts per book in order', async () => {
    const data = await run('{ libraryBooks(q: "بغداد") { items { id parts(limit: 1, offset: 1) { index depth title } } } }');
    expect(data.libraryBooks.items).toEqual([
      { id: '0280.IbnTayfur.Baghdad', parts: [{ index: 2, depth: 2, title: '(ذكر ما كان بعد ذلك)' }] },
    ]);
  });
});
