/**
 * Two full-text peers of the library's retrieval, built on the same pages and asked the same
 * queries: SQLite FTS5 (`node:sqlite`, `bm25()`, `snippet()`) and PostgreSQL's own ranking (a
 * `tsvector` column with a GIN index, `ts_rank_cd`). Both index the library's analysis of each page
 * (`subgraphs/library/analysis/arabic.ts`: normalisation, stop words, light stem and root of every
 * word), so the three systems meet on one vocabulary and differ only in how they store and rank it.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { analyzeQueryWords, analyzeTokens } from '../../subgraphs/library/analysis/arabic.js';
import { weightedQuery } from '../../subgraphs/library/search/bm25.js';

/** A page as the peers store it: an id, its text, and nothing else. */
export interface PeerPage {
  readonly id: string;
  readonly text: string;
}

/** A ranked page from a peer, best first. */
export interface PeerHit {
  readonly id: string;
  readonly score: number;
}

/**
 * The page's terms as a space-separated stream, in the order of its words: each word gives its light
 * stem and its root (the two terms the library's index holds for it); stop words give none.
 */
export function pageTerms(text: string): string {
  const terms: string[] = [];
  for (const token of analyzeTokens(text)) terms.push(token.term, token.root);
  return terms.join(' ');
}

/** The distinct terms a query is searched on: its words' light stems and roots, as the library searches. */
export function queryTerms(query: string): string[] {
  return [...new Set(weightedQuery(analyzeQueryWords(query)).map((term) => term.term))];
}

/** An FTS5 query matching any of the query's terms (each quoted, so no term reads as an operator). */
export function fts5Match(query: string): string {
  return queryTerms(query)
    .map((term) => `"${term.replace(/"/g, '""')}"`)
    .join(' OR ');
}

/** A `to_tsquery('simple', …)` text matching any of the query's terms. */
export function tsQuery(query: string): string {
  return queryTerms(query)
    .map((term) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`)
    .join(' | ');
}

/** The pages of the bench's JSON Lines corpus files, with the library's page ids (`<book_id>-<page>`). */
export async function* corpusPages(files: readonly string[]): AsyncGenerator<PeerPage> {
  for (const file of files) {
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      if (line.trim() === '') continue;
      const { book_id: book, page, text } = JSON.parse(line) as { book_id: string; page: number; text: string };
      yield { id: `${book}-${page}`, text };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// SQLite FTS5

/**
 * One FTS5 table: the term stream (the only indexed column), the page id and its text stored beside
 * it. The `ascii` tokenizer splits on ASCII punctuation and spaces only, so every analysed term
 * (letters and digits of any script) is one token, exactly as the library analysed it.
 */
const FTS5_SCHEMA = `create virtual table page using fts5(terms, id unindexed, text unindexed, tokenize = 'ascii')`;

/**
 * The FTS5 search: OR of the query's terms, ranked by `bm25()` (FTS5's own k1 1.2, b 0.75), with a
 * `snippet()` of up to 24 terms around the best match. FTS5 can only mark what it indexed, so the
 * snippet is cut from the term stream, not from the page text as the library's passages are.
 */
export const FTS5_SEARCH = `select id, bm25(page) as score, snippet(page, 0, '[', ']', '…', 24) as snippet
  from page where page match ? order by rank limit ?`;

/** Builds the FTS5 database at `file` from `pages`; returns the pages written. */
export async function buildFts5(file: string, pages: AsyncIterable<PeerPage> | Iterable<PeerPage>): Promise<number> {
  const db = new DatabaseSync(file);
  try {
    db.exec('pragma journal_mode = off; pragma synchronous = off;');
    db.exec(FTS5_SCHEMA);
    const insert = db.prepare('insert into page (terms, id, text) values (?, ?, ?)');
    let count = 0;
    db.exec('begin');
    for await (const page of pages) {
      insert.run(pageTerms(page.text), page.id, page.text);
      count += 1;
      if (count % 10_000 === 0) db.exec('commit; begin');
    }
    db.exec('commit');
    // Merges the index's b-trees into one, as a read-mostly index would be kept.
    db.exec(`insert into page (page) values ('optimize')`);
    return count;
  } finally {
    db.close();
  }
}

/** The FTS5 peer's top pages for a query, on an open connection. */
export function searchFts5(db: DatabaseSync, query: string, limit: number): Array<PeerHit & { snippet: string }> {
  const match = fts5Match(query);
  if (match === '') return [];
  const rows = db.prepare(FTS5_SEARCH).all(match, limit) as Array<{ id: string; score: number; snippet: string }>;
  // bm25() is lower for better matches; the score shown is its negation, higher better like the others.
  return rows.map((row) => ({ id: row.id, score: -row.score, snippet: row.snippet }));
}

/** Latencies (ms, sorted) and failures of one closed-loop measurement. */
export interface Samples {
  readonly latencies: readonly number[];
  readonly errors: number;
  readonly seconds: number;
}

/**
 * The FTS5 load generator, one per worker thread: its own read-only connection, one prepared
 * statement, requests back to back until the deadline (wall clock, shared by all threads), each
 * timed in the thread. Written as plain JavaScript so the thread needs no TypeScript loader.
 */
const FTS5_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const { file, sql, matches, limit, first, step } = workerData;
const db = new DatabaseSync(file, { readOnly: true });
const statement = db.prepare(sql);
parentPort.once('message', ({ until }) => {
  const latencies = [];
  let errors = 0;
  for (let n = first; Date.now() < until; n += step) {
    const started = performance.now();
    try {
      statement.all(matches[n % matches.length], limit);
      latencies.push(performance.now() - started);
    } catch {
      errors += 1;
    }
  }
  db.close();
  parentPort.postMessage({ latencies, errors });
});
parentPort.postMessage('ready');
`;

/** `connections` worker threads querying the FTS5 file for `seconds`, each with its own connection. */
export async function measureFts5(
  file: string,
  queries: readonly string[],
  connections: number,
  seconds: number,
  limit: number,
): Promise<Samples> {
  const matches = queries.map(fts5Match);
  const workers = Array.from(
    { length: connections },
    (_, first) => new Worker(FTS5_WORKER, { eval: true, workerData: { file, sql: FTS5_SEARCH, matches, limit, first, step: connections } }),
  );
  try {
    const ready = workers.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          worker.once('message', () => resolve());
          worker.once('error', reject);
        }),
    );
    await Promise.all(ready);
    const done = workers.map(
      (worker) =>
        new Promise<{ latencies: number[]; errors: number }>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    );
    const until = Date.now() + seconds * 1000;
    for (const worker of workers) worker.postMessage({ until });
    const results = await Promise.all(done);
    return {
      latencies: results.flatMap((result) => result.latencies).sort((a, b) => a - b),
      errors: results.reduce((sum, result) => sum + result.errors, 0),
      seconds,
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL tsvector + ts_rank_cd

/** The peer's table: the page id, its text, and a tsvector of its term stream under the `simple` configuration. */
const PG_SCHEMA = `create table peer_page (id text not null, text text not null, tsv tsvector not null)`;

/**
 * The PostgreSQL search: pages whose tsvector matches any query term (GIN index), ranked by
 * `ts_rank_cd` (cover density, no length normalisation), ties by id; no `ts_headline`.
 */
export const PG_SEARCH = `select id, ts_rank_cd(tsv, q) as score
  from peer_page, to_tsquery('simple', $1) q
  where tsv @@ q
  order by score desc, id
  limit $2`;

/** Builds the peer's table (dropped first) and its GIN index in the database at `url`; returns the pages written. */
export async function buildPgPeer(url: string, pages: AsyncIterable<PeerPage> | Iterable<PeerPage>): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('drop table if exists peer_page');
    await client.query(PG_SCHEMA);
    let batch: PeerPage[] = [];
    let count = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      // raw SQL: bulk load of the benchmark peer's table (not the application's schema).
      await client.query(
        `insert into peer_page (id, text, tsv)
         select id, text, to_tsvector('simple', terms) from unnest($1::text[], $2::text[], $3::text[]) as r(id, text, terms)`,
        [batch.map((page) => page.id), batch.map((page) => page.text), batch.map((page) => pageTerms(page.text))],
      );
      count += batch.length;
      batch = [];
    };
    for await (const page of pages) {
      batch.push(page);
      if (batch.length >= 1000) await flush();
    }
    await flush();
    await client.query('create index peer_page_tsv on peer_page using gin (tsv)');
    await client.query('vacuum analyze peer_page');
    return count;
  } finally {
    await client.end();
  }
}

/** The PostgreSQL peer's top pages for a query. */
export async function searchPg(db: pg.Pool | pg.Client, query: string, limit: number): Promise<PeerHit[]> {
  const text = tsQuery(query);
  if (text === '') return [];
  const { rows } = await db.query<{ id: string; score: number }>(PG_SEARCH, [text, limit]);
  return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
}

/** Bytes the peer's table takes: heap, TOAST and indexes. */
export async function pgPeerBytes(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string }>(`select pg_total_relation_size('peer_page') as bytes`);
    return Number(rows[0]!.bytes);
  } finally {
    await client.end();
  }
}

/** `connections` callers in this process, each calling `call` back to back for `seconds`, round-robin over `queries`. */
export async function closedLoop(
  call: (query: string) => Promise<unknown>,
  queries: readonly string[],
  connections: number,
  seconds: number,
): Promise<Samples> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, first) => {
      for (let n = first; performance.now() < until; n += connections) {
        const started = performance.now();
        try {
          await call(queries[n % queries.length]!);
          latencies.push(performance.now() - started);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), errors, seconds };
}

/** `connections` pooled PostgreSQL connections querying the peer's table for `seconds`. */
export async function measurePg(
  url: string,
  queries: readonly string[],
  connections: number,
  seconds: number,
  limit: number,
): Promise<Samples> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  // `end()` resolves once it has asked its connections to close, not once they have: one still
  // closing when the database stops sees the shutdown as an error, which is not the measurement's.
  pool.on('error', () => undefined);
  try {
    // Every connection opened before the clock starts.
    const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
    for (const client of clients) client.release();
    return await closedLoop((query) => searchPg(pool, query, limit), queries, connections, seconds);
  } finally {
    await pool.end();
  }
}
