import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildFts5,
  buildPgPeer,
  fts5Match,
  pgPeerBytes,
  queryTerms,
  searchFts5,
  searchPg,
  tsQuery,
  type PeerPage,
} from '../../bench/peers/fts-peers.js';
import { createTestDatabase } from '../support/database.js';

/** Five pages whose answers are known: which pages hold which query words, and how often. */
const PAGES: readonly PeerPage[] = [
  { id: 'baghdad/1', text: 'دخل المأمون بغداد وعبر دجلة إلى الجانب الشرقي من بغداد.' },
  { id: 'baghdad/2', text: 'كانت بغداد عاصمة الخلافة وفيها الأسواق والمساجد.' },
  { id: 'sabr/1', text: 'الصَّبْرُ على البلاءِ من أعظم العبادات، والصبر مفتاح الفرج عند البلاء.' },
  { id: 'poetry/1', text: 'قال الشاعر في وصف الربيع والأزهار والأنهار.' },
  { id: 'river/1', text: 'نهر دجلة يمر بالموصل ثم يمضي جنوبا.' },
];

/** Query → the pages that must come back (any of its words), best first where the order is certain. */
const EXPECTED = [
  { query: 'بغداد دجلة', top: 'baghdad/1', matching: ['baghdad/1', 'baghdad/2', 'river/1'] },
  { query: 'الصبر على البلاء', top: 'sabr/1', matching: ['sabr/1'] },
  // Written with tashkeel and alef variants: normalised as the pages were.
  { query: 'الصّبر', top: 'sabr/1', matching: ['sabr/1'] },
  { query: 'المأمون', top: 'baghdad/1', matching: ['baghdad/1'] },
];

describe('the library-scale peers rank the pages that hold the query words', () => {
  let dir: string;
  let sqlite: DatabaseSync;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let client: pg.Client;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'qantara-peers-'));
    expect(await buildFts5(join(dir, 'peers.sqlite'), PAGES)).toBe(PAGES.length);
    sqlite = new DatabaseSync(join(dir, 'peers.sqlite'), { readOnly: true });
    database = await createTestDatabase();
    expect(await buildPgPeer(database.url, PAGES)).toBe(PAGES.length);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    sqlite?.close();
    await client?.end();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('searches the light stems and roots of the query words, stop words left out, with OR between them', () => {
    const terms = queryTerms('الصبر على البلاء');
    expect(terms).toContain('صبر');
    expect(terms).not.toContain('علي');
    expect(fts5Match('بغداد دجلة')).toMatch(/^"[^"]+"( OR "[^"]+")+$/);
    expect(tsQuery('بغداد دجلة')).toMatch(/^'[^']+'( \| '[^']+')+$/);
  });

  it.each(EXPECTED)('FTS5 with bm25() returns the pages holding «$query», the expected one first', ({ query, top, matching }) => {
    const hits = searchFts5(sqlite, query, 10);
    expect(hits[0]?.id).toBe(top);
    expect(hits.map((hit) => hit.id).sort()).toEqual([...matching].sort());
    expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
    expect(hits[0]!.snippet).toContain('[');
  });

  it.each(EXPECTED)(
    'PostgreSQL with ts_rank_cd returns the pages holding «$query», the expected one first',
    async ({ query, top, matching }) => {
      const hits = await searchPg(client, query, 10);
      expect(hits[0]?.id).toBe(top);
      expect(hits.map((hit) => hit.id).sort()).toEqual([...matching].sort());
      expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
    },
  );

  it('both peers keep only the requested number of pages', async () => {
    expect(searchFts5(sqlite, 'بغداد دجلة', 2)).toHaveLength(2);
    expect(await searchPg(client, 'بغداد دجلة', 2)).toHaveLength(2);
  });

  it('a query made only of stop words matches nothing rather than everything', async () => {
    expect(searchFts5(sqlite, 'على من في', 10)).toEqual([]);
    expect(await searchPg(client, 'على من في', 10)).toEqual([]);
  });

  it('the PostgreSQL peer reports the size of its table with its GIN index', async () => {
    expect(await pgPeerBytes(database.url)).toBeGreaterThan(0);
  });
});
