import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import pg from 'pg';
import { RETRIEVAL_BOUNDS } from '../contracts/library/content.contract.js';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { createLogger } from '../runtime/logger.js';
import { libraryModule } from '../subgraphs/library/library.module.js';
import { PostgresSearchEngine } from '../subgraphs/library/search/postgres-engine.js';
import { RetrievalService } from '../subgraphs/library/search/retrieval.service.js';
import { openOrm } from '../subgraphs/shared/orm.js';
import { ROOT, startServer } from './harness.js';
import {
  buildFts5,
  buildPgPeer,
  closedLoop,
  corpusPages,
  measureFts5,
  measurePg,
  pgPeerBytes,
  searchFts5,
  searchPg,
  type Samples,
} from './peers/fts-peers.js';
import { table, type BenchModule } from './report.js';
import { corpusFiles, OPENITI, writeScaleCorpus, type ScaleCorpus } from './scale-corpus.js';

/** Seconds per measured row (and per warm-up), from `--scale-seconds=N`; 15 by default. */
const SECONDS = Number(process.argv.find((value) => value.startsWith('--scale-seconds='))?.slice('--scale-seconds='.length) ?? 15);
/** Pages asked for by every request, of every system: the library's default `limit`. */
const LIMIT = RETRIEVAL_BOUNDS.limit.default;
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** The targets at a million pages: latency at 1 connection, throughput at 8, import rate, the stack's share. */
const TARGET = { p95Ms: 30, rps: 150, importPagesPerSecond: 4000, httpSharePercent: 70 } as const;

/** Words rare in the corpus: a few hundred to a few tens of thousands of pages per million. */
export const RARE = [
  'المأمون',
  'بغداد دجلة',
  'الصبر على البلاء',
  'فضائل القرآن بمكة',
  'خراسان والري',
  'البديع في الشعر',
  'سنة الشمس بالرصد',
  'أيوب',
];
/** Words on most pages (قال 79%, الله 72%, بن 68% of them), alone or with question words. */
const COMMON = [
  'قال الله',
  'رسول الله',
  'قال رسول الله صلى الله عليه وسلم',
  'حدثنا أبو بكر',
  'ماذا قال رسول الله',
  'كيف كان النبي يصلي',
  'من هو عبد الله بن عباس',
  'الحمد لله رب العالمين',
];

/** Sizes to build, from `--scale-sizes=100000,1000000` or both by default. */
function sizes(): number[] {
  const arg = process.argv.find((value) => value.startsWith('--scale-sizes='));
  return arg ? arg.slice('--scale-sizes='.length).split(',').map(Number) : [100_000, 1_000_000];
}

/**
 * `--scale-dir=DIR` keeps each size's corpus and database in `DIR/<pages>` instead of a scratch
 * directory removed at the end; a size already imported there is measured again without being
 * rebuilt (its import figures are the ones recorded when it was imported).
 */
function keptDir(): string | undefined {
  return process.argv.find((value) => value.startsWith('--scale-dir='))?.slice('--scale-dir='.length);
}

/** `--scale-openiti=DIR` re-samples the OpenITI books found in DIR instead of `../shared/corpus/openiti`. */
function openitiDir(): string {
  return process.argv.find((value) => value.startsWith('--scale-openiti='))?.slice('--scale-openiti='.length) ?? OPENITI;
}

/** CPU seconds (user + system) a process has used, from `/proc` (Linux); `children` adds its reaped children's. */
function cpuSeconds(pid: number, children = false): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
    return ticks / 100;
  } catch {
    return Number.NaN;
  }
}

/** The server's processes as README's start runs them: `WEB_CONCURRENCY` HTTP workers, one per core by default. */
function serverProcesses(): string {
  const workers = Number(process.env.WEB_CONCURRENCY ?? availableParallelism());
  return workers > 1 ? `a primary and ${workers} HTTP worker processes` : 'one process';
}

/** CPU seconds used so far by a process and its children: those running now and those that have exited. */
function treeCpuSeconds(root: number): number {
  let total = cpuSeconds(root, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[1]) === root) total += cpuSeconds(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/**
 * CPU seconds used so far by the server (its primary and HTTP worker processes) and by the PostgreSQL
 * cluster (its postmaster and backends), or NaN where `/proc` cannot tell.
 */
function cpuUsed(serverPid: number, dataDir: string): { server: number; database: number } {
  try {
    const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return { server: treeCpuSeconds(serverPid), database: treeCpuSeconds(postmaster) };
  } catch {
    // not Linux, or the cluster is gone
    return { server: Number.NaN, database: Number.NaN };
  }
}

/** The options this run was given, a kept directory named DIR (its path is this machine's). */
function runOptions(): string {
  return process.argv
    .filter((value) => value.startsWith('--scale-'))
    .map((value) => value.replace(/^(--scale-(?:dir|openiti))=.*$/, '$1=DIR'))
    .join(' ');
}

function percentile(sorted: readonly number[], p: number): string {
  return (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN).toFixed(1);
}

/** Bytes as MB (10⁶ bytes), the unit the sizes of the peers are given in. */
function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toLocaleString('en', { maximumFractionDigits: 0 })} MB`;
}

/** Where the measured requests go, and the processes whose CPU time they cost. */
interface Target {
  readonly url: string;
  readonly key: string;
  readonly serverPid: number;
  readonly dataDir: string;
}

/** `connections` clients retrieving in a loop for SECONDS; every answered request is a sample, any other answer an error. */
async function measure(target: Target, queries: readonly string[], connections: number): Promise<Array<string | number>> {
  const { url, key } = target;
  const before = cpuUsed(target.serverPid, target.dataDir);
  const retrieve = async (q: string) => {
    const response = await fetch(`${url}/v1/retrieve?${new URLSearchParams({ q, limit: String(LIMIT) })}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`answered ${response.status}`);
  };
  const { latencies: samples, errors } = await closedLoop(retrieve, queries, connections, SECONDS);
  const after = cpuUsed(target.serverPid, target.dataDir);
  const perRequest = (seconds: number) => (Number.isFinite(seconds) ? ((seconds * 1000) / Math.max(samples.length, 1)).toFixed(1) : '–');
  return [
    connections,
    percentile(samples, 50),
    percentile(samples, 95),
    percentile(samples, 99),
    Math.round(samples.length / SECONDS),
    errors,
    perRequest(after.server - before.server),
    perRequest(after.database - before.database),
  ];
}

interface Sizes {
  database: string;
  pages: string;
  terms: string;
  postings: string;
}

async function sizesOf(url: string): Promise<Sizes> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Sizes>(`select pg_size_pretty(pg_database_size(current_database())) as database,
      pg_size_pretty(pg_total_relation_size('library.page')) as pages,
      pg_size_pretty(pg_total_relation_size('library.term_stat')) as terms,
      pg_size_pretty(pg_total_relation_size('library.posting') + pg_total_relation_size('library.posting_segment')) as postings`);
    return rows[0]!;
  } finally {
    await client.end();
  }
}

/** How long a peer took to build from the corpus files (analysis included), its size, when, and the load as it ended. */
interface Built {
  readonly seconds: number;
  readonly bytes: number;
  readonly builtAt: string;
  readonly load: string;
}

interface PeerBuilds {
  readonly fts5: Built;
  readonly postgres: Built;
}

/** Latency row of one system: system, queries, connections, p50, p95, p99, req/s, errors. */
type SystemRow = [system: string, queries: string, connections: number, p50: string, p95: string, p99: string, rps: number, errors: number];

interface ScaleRun extends Imported {
  readonly sizes: Sizes;
  readonly rows: Array<Array<string | number>>;
  /** Load averages (1 / 5 / 15 min) before and after the latency measurements. */
  readonly load: string;
  /** The engine in process and the peers, on the same pages and queries. */
  readonly systems: readonly SystemRow[];
  readonly builds: PeerBuilds;
  /** Load averages before and after the engine-in-process and peer rows. */
  readonly systemsLoad: string;
  /** Per peer and query set: how many of the engine's top pages the peer also returned, on average per query. */
  readonly shared: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Load averages as this size's run started and as it ended. */
  readonly loadStart: string;
  readonly loadEnd: string;
}

function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
}

interface Imported {
  readonly corpus: ScaleCorpus;
  readonly importSeconds: number;
  /** When the import ran and the load average (1 / 5 / 15 min) as it ended. */
  readonly importedAt: string;
  readonly importLoad: string;
}

const QUERY_SETS = [
  ['rare words', RARE],
  ['common words', COMMON],
] as const;

const ENGINE_IN_PROCESS = 'Qantara engine, in process, without HTTP';
const FTS5 = 'SQLite FTS5, bm25() + snippet()';
const TS_RANK = 'PostgreSQL tsvector + GIN, ts_rank_cd';
const HTTP = 'Qantara over HTTP';

/** One system's rows: per query set an 8-connection warm-up, then 1 and 8 connections. */
async function systemRows(
  system: string,
  measure: (queries: readonly string[], connections: number) => Promise<Samples>,
): Promise<SystemRow[]> {
  const rows: SystemRow[] = [];
  for (const [name, queries] of QUERY_SETS) {
    await measure(queries, 8); // warm-up
    for (const connections of [1, 8]) {
      const { latencies, errors, seconds } = await measure(queries, connections);
      rows.push([
        system,
        name,
        connections,
        percentile(latencies, 50),
        percentile(latencies, 95),
        percentile(latencies, 99),
        Math.round(latencies.length / seconds),
        errors,
      ]);
    }
  }
  return rows;
}

/** A database of its own for the PostgreSQL peer on the run's cluster (kept when it exists); its URL. */
async function peersDatabase(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rowCount } = await client.query(`select 1 from pg_database where datname = 'bench_peers'`);
    if (!rowCount) await client.query('create database bench_peers');
  } finally {
    await client.end();
  }
  const peers = new URL(url);
  peers.pathname = '/bench_peers';
  return peers.toString();
}

async function timedBuild(build: () => Promise<number>): Promise<Built> {
  const started = performance.now();
  const bytes = await build();
  return {
    seconds: (performance.now() - started) / 1000,
    bytes,
    builtAt: new Date().toISOString().slice(0, 16).replace('T', ' '),
    load: loadAverage(),
  };
}

function progress(pages: number, what: string): void {
  process.stdout.write(`library-scale: ${pages.toLocaleString('en')} pages: ${what} (load average ${loadAverage()})\n`);
}

/**
 * The engine called in this process (the retrieval service the library subgraph serves, without
 * HTTP, keys or gateway), then the two peers built from the corpus files and measured.
 */
async function measureSystems(
  pages: number,
  dir: string,
  files: readonly string[],
  databaseUrl: string,
  kept: boolean,
): Promise<{ systems: SystemRow[]; builds: PeerBuilds; load: string; shared: ScaleRun['shared'] }> {
  const loadBefore = loadAverage();
  const systems: SystemRow[] = [];
  const everyQuery = QUERY_SETS.flatMap(([, queries]) => queries);
  const topsOf = async (search: (q: string) => Promise<ReadonlyArray<{ id: string }>>) =>
    new Map(await Promise.all(everyQuery.map(async (q) => [q, (await search(q)).map((hit) => hit.id)] as const)));
  let engineTops = new Map<string, string[]>();
  progress(pages, 'the engine in process');
  const logger = createLogger('silent');
  const orm = await openOrm(libraryModule.database, { databaseUrl, logger });
  try {
    const service = new RetrievalService(new PostgresSearchEngine(orm), logger);
    const request = { limit: LIMIT, maxChars: RETRIEVAL_BOUNDS.maxChars.retrieveDefault };
    const retrieve = (q: string) => service.retrieve(orm.em.fork(), { ...request, q }, RETRIEVAL_BOUNDS.limit.max);
    engineTops = await topsOf(async (q) => (await retrieve(q)).passages);
    systems.push(...(await systemRows(ENGINE_IN_PROCESS, (queries, connections) => closedLoop(retrieve, queries, connections, SECONDS))));
  } finally {
    await orm.close(true);
  }

  const file = join(dir, 'peers.sqlite');
  const peersUrl = await peersDatabase(databaseUrl);
  const record = join(dir, 'peers.json');
  let builds = kept && existsSync(record) ? (JSON.parse(await readFile(record, 'utf8')) as PeerBuilds) : undefined;
  if (!builds) {
    progress(pages, 'building the SQLite FTS5 peer');
    const fts5 = await timedBuild(async () => {
      await rm(file, { force: true });
      await buildFts5(file, corpusPages(files));
      return statSync(file).size;
    });
    progress(pages, 'building the PostgreSQL ts_rank_cd peer');
    const postgres = await timedBuild(async () => {
      await buildPgPeer(peersUrl, corpusPages(files));
      return pgPeerBytes(peersUrl);
    });
    builds = { fts5, postgres };
    if (kept) await writeFile(record, JSON.stringify(builds));
  }
  const sqlite = new DatabaseSync(file, { readOnly: true });
  const fts5Tops = await topsOf(async (q) => searchFts5(sqlite, q, LIMIT));
  sqlite.close();
  const client = new pg.Client({ connectionString: peersUrl });
  await client.connect();
  const pgTops = await topsOf((q) => searchPg(client, q, LIMIT));
  await client.end();
  const shared: Record<string, Record<string, number>> = {};
  for (const [system, tops] of [
    [FTS5, fts5Tops],
    [TS_RANK, pgTops],
  ] as const) {
    shared[system] = {};
    for (const [name, queries] of QUERY_SETS) {
      const counts = queries.map((q) => tops.get(q)!.filter((id) => engineTops.get(q)!.includes(id)).length);
      shared[system][name] = counts.reduce((sum, count) => sum + count, 0) / queries.length;
    }
  }
  progress(pages, 'measuring the SQLite FTS5 peer');
  systems.push(...(await systemRows(FTS5, (queries, connections) => measureFts5(file, queries, connections, SECONDS, LIMIT))));
  progress(pages, 'measuring the PostgreSQL ts_rank_cd peer');
  systems.push(...(await systemRows(TS_RANK, (queries, connections) => measurePg(peersUrl, queries, connections, SECONDS, LIMIT))));
  return { systems, builds, shared, load: `${loadBefore} before, ${loadAverage()} after` };
}

/** One library size: corpus written, imported with `npm run import`, retrieval measured through REST, then in process and on the peers. */
async function scaleRun(pages: number): Promise<ScaleRun> {
  const loadStart = loadAverage();
  progress(pages, 'start');
  const kept = keptDir();
  const dir = kept ? join(kept, String(pages)) : await mkdtemp(join(tmpdir(), 'qantara-bench-scale-'));
  const record = join(dir, 'imported.json');
  await mkdir(join(dir, 'corpus'), { recursive: true });
  const database = await startEmbeddedPostgres(join(dir, 'pg'));
  const env = { DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DEMO_LIBRARY: 'false', ADMIN_TOKEN };
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    let imported: Imported;
    if (kept && existsSync(record)) {
      imported = JSON.parse(await readFile(record, 'utf8')) as Imported;
      server = await startServer(env);
    } else {
      // A corpus kept from an earlier run is imported again as it is (it is the same for a given size).
      const written = join(dir, 'corpus.json');
      const corpus =
        kept && existsSync(written)
          ? (JSON.parse(await readFile(written, 'utf8')) as ScaleCorpus)
          : await writeScaleCorpus(join(dir, 'corpus'), pages, undefined, openitiDir());
      if (kept) await writeFile(written, JSON.stringify(corpus));
      server = await startServer(env);
      progress(pages, 'importing');
      const started = performance.now();
      await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...corpus.files], {
        cwd: ROOT,
        env: { ...process.env, ...env },
        maxBuffer: 256 * 1024 * 1024,
      });
      imported = {
        corpus,
        importSeconds: (performance.now() - started) / 1000,
        importedAt: new Date().toISOString().slice(0, 16).replace('T', ' '),
        importLoad: loadAverage(),
      };
      if (kept) await writeFile(record, JSON.stringify(imported));
    }
    const issued = await fetch(`${server.url}/admin/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ email: `bench-${Date.now()}@example.org`, plan: 'unlimited' }),
    });
    const { key } = (await issued.json()) as { key: string };
    const rows: Array<Array<string | number>> = [];
    progress(pages, 'measuring over HTTP');
    const loadBefore = loadAverage();
    for (const [name, queries] of QUERY_SETS) {
      const target = { url: server.url, key, serverPid: server.pid, dataDir: database.dataDir };
      await measure(target, queries, 8); // warm-up
      for (const connections of [1, 8]) rows.push([name, ...(await measure(target, queries, connections))]);
    }
    const load = `${loadBefore} before, ${loadAverage()} after`;
    const sizes = await sizesOf(database.url);
    // The server is stopped so that it spends nothing while the other systems are measured.
    await server.stop();
    server = undefined;
    const measured = await measureSystems(pages, dir, imported.corpus.files, database.url, kept !== undefined);
    const loadEnd = loadAverage();
    progress(pages, 'end');
    return {
      ...imported,
      sizes,
      rows,
      load,
      systems: measured.systems,
      builds: measured.builds,
      shared: measured.shared,
      systemsLoad: measured.load,
      loadStart,
      loadEnd,
    };
  } finally {
    await server?.stop();
    await database.stop();
    if (!kept) await rm(dir, { recursive: true, force: true });
  }
}

/** Requests per second of Qantara over HTTP for one query set and connection count. */
function httpRps(run: ScaleRun, queries: string, connections: number): number {
  return Number(run.rows.find((cells) => cells[0] === queries && cells[1] === connections)?.[5] ?? Number.NaN);
}

/** Requests per second of one system for one query set and connection count. */
function systemRps(run: ScaleRun, system: string, queries: string, connections: number): number {
  return run.systems.find((cells) => cells[0] === system && cells[1] === queries && cells[2] === connections)?.[6] ?? Number.NaN;
}

/** HTTP req/s ÷ engine-in-process req/s for rare words at 8 connections, as a percentage. */
function httpShare(run: ScaleRun): number {
  return (100 * httpRps(run, 'rare words', 8)) / systemRps(run, ENGINE_IN_PROCESS, 'rare words', 8);
}

/** The peers' build table and every system's latency rows beside Qantara over HTTP, grouped by query set and connections. */
function systemsSection(run: ScaleRun): string {
  const { corpus, builds } = run;
  const rate = (seconds: number) => Math.round(corpus.pages / seconds).toLocaleString('en');
  const buildRows = [
    [
      `Qantara (\`npm run import\`)`,
      `${run.importSeconds.toFixed(0)} s`,
      rate(run.importSeconds),
      `${run.sizes.database} (whole database)`,
      run.importLoad,
    ],
    [FTS5, `${builds.fts5.seconds.toFixed(0)} s`, rate(builds.fts5.seconds), `${megabytes(builds.fts5.bytes)} (file)`, builds.fts5.load],
    [
      TS_RANK,
      `${builds.postgres.seconds.toFixed(0)} s`,
      rate(builds.postgres.seconds),
      `${megabytes(builds.postgres.bytes)} (table, TOAST, GIN)`,
      builds.postgres.load,
    ],
  ];
  const latencyRows: Array<Array<string | number>> = [];
  for (const [name] of QUERY_SETS) {
    for (const connections of [1, 8]) {
      const http = run.rows.find((cells) => cells[0] === name && cells[1] === connections)!;
      latencyRows.push([`**${HTTP}**`, name, connections, http[2]!, http[3]!, http[4]!, http[5]!, http[6]!, '1.00', '–']);
      for (const system of [ENGINE_IN_PROCESS, FTS5, TS_RANK]) {
        const row = run.systems.find((cells) => cells[0] === system && cells[1] === name && cells[2] === connections)!;
        const ratio = row[6] / httpRps(run, name, connections);
        const shared = run.shared[system]?.[name];
        latencyRows.push([...row, Number.isFinite(ratio) ? ratio.toFixed(2) : '–', shared === undefined ? '–' : shared.toFixed(1)]);
      }
    }
  }
  return [
    `Peers and the engine in process, on the same pages and queries; load average around these rows: ${run.systemsLoad}.`,
    '',
    table(['system', 'build (analysis included)', 'pages/s', 'size on disk', 'load average as the build ended'], buildRows),
    '',
    table(
      [
        'system',
        'queries',
        'connections',
        'p50',
        'p95',
        'p99',
        'req/s',
        'errors',
        'req/s ÷ Qantara over HTTP',
        `of Qantara's top ${LIMIT}`,
      ],
      latencyRows,
    ),
    '',
    `HTTP req/s ÷ engine in-process req/s, rare words at 8 connections: ${httpShare(run).toFixed(0)}% (target ≥ ${TARGET.httpSharePercent}%).`,
  ].join('\n');
}

/** The targets of the largest library measured, each met or missed by how much. */
function targets(runs: readonly ScaleRun[]): string {
  const largest = runs.at(-1);
  if (!largest) return '';
  const row = (name: string, connections: number) => largest.rows.find((cells) => cells[0] === name && cells[1] === connections)!;
  const verdict = (met: boolean, by: string) => (met ? 'met' : `missed by ${by}`);
  const lines: Array<Array<string | number>> = [];
  for (const name of ['rare words', 'common words']) {
    const p95 = Number(row(name, 1)[3]);
    const rps = Number(row(name, 8)[5]);
    lines.push([
      `${name}: p95 at 1 connection ≤ ${TARGET.p95Ms} ms`,
      `${p95.toFixed(1)} ms`,
      verdict(p95 <= TARGET.p95Ms, `${(p95 - TARGET.p95Ms).toFixed(1)} ms (×${(p95 / TARGET.p95Ms).toFixed(2)})`),
    ]);
    lines.push([
      `${name}: ≥ ${TARGET.rps} req/s at 8 connections`,
      rps,
      verdict(rps >= TARGET.rps, `${TARGET.rps - rps} req/s (×${(TARGET.rps / Math.max(rps, 1)).toFixed(2)})`),
    ]);
  }
  const rate = Math.round(largest.corpus.pages / largest.importSeconds);
  const fts5Build = Math.round(largest.corpus.pages / largest.builds.fts5.seconds);
  lines.push([
    `import ≥ ${TARGET.importPagesPerSecond.toLocaleString('en')} pages/s`,
    rate,
    verdict(
      rate >= TARGET.importPagesPerSecond,
      `${TARGET.importPagesPerSecond - rate} pages/s (×${(TARGET.importPagesPerSecond / rate).toFixed(2)})`,
    ),
  ]);
  for (const [name] of QUERY_SETS)
    for (const connections of [1, 8]) {
      const ours = httpRps(largest, name, connections);
      const peer = systemRps(largest, FTS5, name, connections);
      lines.push([
        `${name}, ${connections} connection${connections > 1 ? 's' : ''}: Qantara over HTTP req/s ≥ SQLite FTS5's`,
        `${ours} against ${peer} (×${(ours / peer).toFixed(2)})`,
        verdict(ours >= peer, `${peer - ours} req/s`),
      ]);
    }
  lines.push([
    "import: Qantara's pages/s ≥ SQLite FTS5's build",
    `${rate} against ${fts5Build} (×${(rate / fts5Build).toFixed(2)})`,
    verdict(rate >= fts5Build, `${fts5Build - rate} pages/s`),
  ]);
  const share = httpShare(largest);
  lines.push([
    `rare words at 8 connections: HTTP req/s ÷ engine in-process req/s ≥ ${TARGET.httpSharePercent}%`,
    `${share.toFixed(0)}%`,
    verdict(share >= TARGET.httpSharePercent, `${(TARGET.httpSharePercent - share).toFixed(0)} points`),
  ]);
  return [`### Targets at ${largest.corpus.pages.toLocaleString('en')} pages`, '', table(['target', 'measured', ''], lines)].join('\n');
}

async function libraryScale(): Promise<string> {
  if (corpusFiles(openitiDir()).length === 0)
    return 'Not measured: the OpenITI corpus (`../shared/corpus/openiti/`) is not beside the project.';
  const sections: string[] = [];
  const runs: ScaleRun[] = [];
  for (const pages of sizes()) {
    const run = await scaleRun(pages);
    const { corpus, importSeconds, sizes: size, load } = run;
    runs.push(run);
    sections.push(
      [
        `### ${corpus.pages.toLocaleString('en')} pages`,
        '',
        `${corpus.books} books, ${Math.round(corpus.chars / corpus.pages)} characters per page on average. Load average (1 / 5 / 15 min)`,
        `as this size's run started: ${run.loadStart}; as it ended: ${run.loadEnd}. Imported ${run.importedAt} UTC,`,
        `load average as the import ended: ${run.importLoad}; around the latency measurements over HTTP: ${load}.`,
        '',
        table(
          [
            `import (\`npm run import\`, ${corpus.files.length} files)`,
            'pages/s',
            'database',
            'pages (text, terms)',
            'term_stat',
            'postings',
          ],
          [
            [
              `${importSeconds.toFixed(0)} s`,
              Math.round(corpus.pages / importSeconds),
              size.database,
              size.pages,
              size.terms,
              size.postings,
            ],
          ],
        ),
        '',
        table(
          ['queries', 'connections', 'p50', 'p95', 'p99', 'req/s', 'errors + non-2xx', 'server CPU ms/req', 'PostgreSQL CPU ms/req'],
          run.rows,
        ),
        '',
        systemsSection(run),
      ].join('\n'),
    );
  }
  return [
    'Corpora re-sampled from the OpenITI books of `../shared/corpus/openiti` (`bench/scale-corpus.ts`): each generated',
    'book draws on one source book (sources weighted by their page count), its pages take their lengths from the',
    "source's real pages and are filled with the source's sentences drawn at random; 100–900 pages per book, JSON Lines",
    'files of 50,000 pages. Imported with `npm run import` (one transaction per file) into an embedded PostgreSQL',
    'started for the run (`--scale-dir=DIR` keeps corpus and database in DIR and measures a size already imported there',
    'again without importing it, so latencies can be taken when the machine is quietest), then `GET /v1/retrieve?q=…&limit=8` with an `unlimited` key through the whole stack',
    `(facade → gateway → library subgraph → PostgreSQL), ${SECONDS} s per row after an 8-connection warm-up of the same`,
    'length; every request is a sample (fetch from this process). Latencies in ms. CPU per request: the CPU time the',
    `server (${serverProcesses()}; facade, gateway and library subgraph in each worker) and the PostgreSQL cluster used during`,
    "the row, read from `/proc`, over the row's requests — what bounds the requests per second of an idle machine.",
    `This run: \`npm run bench -- library-scale ${runOptions()}\`.`,
    `Rare-word queries: ${RARE.map((q) => `«${q}»`).join(', ')}.`,
    `Common-word queries: ${COMMON.map((q) => `«${q}»`).join(', ')}.`,
    '',
    'Beside Qantara over HTTP, on the same pages and queries, the same warm-up and rows, every system asked for the',
    `top ${LIMIT} pages: **${ENGINE_IN_PROCESS}** — the library's retrieval service (query analysis, exact top-k,`,
    'pages read and passages cut) called from this process by 1 or 8 concurrent callers, without facade, gateway or',
    `keys; **${FTS5}** (\`node:sqlite\`; OR of the query's terms ranked by FTS5's bm25 with its own k1 1.2, b 0.75;`,
    'a snippet of 24 terms; 8 connections are 8 worker threads, each with its own read-only connection); and',
    `**${TS_RANK}** (the \`simple\` configuration, OR of the query's terms, \`ts_rank_cd\` without length`,
    'normalisation, no `ts_headline`; a `pg` pool of 1 or 8 connections to the same PostgreSQL cluster). Both peers',
    "index the library's own analysis of each page (normalisation, stop words, the light stem and root of each word, as",
    "`subgraphs/library/analysis` gives them) and search the query's light stems and roots, so the four meet on one",
    "vocabulary; the FTS5 snippet is cut from that term stream (FTS5 can only mark what it indexed). A peer's build time",
    'reads the corpus files, analyses every page and builds its index; its size is the SQLite file (terms, ids and page',
    "text) or the PostgreSQL table's `pg_total_relation_size` (page text, tsvector, GIN index). The last column divides a",
    "system's req/s by Qantara's over HTTP for the same queries and connections; the one after it, how many of the",
    `pages Qantara ranks in its top ${LIMIT} a peer also returns, on average per query (the peers rank by their own`,
    "formulas, every term weighted alike, where the library weighs a word's root twice beside its light stem).",
    '',
    sections.join('\n\n'),
    '',
    targets(runs),
  ].join('\n');
}

export const libraryScaleBench: BenchModule = {
  name: 'library-scale',
  title: `Library: retrieval and import at ${sizes()
    .map((pages) => pages.toLocaleString('en'))
    .join(' and ')} pages`,
  run: libraryScale,
};
