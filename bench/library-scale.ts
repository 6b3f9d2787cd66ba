import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { ROOT, startServer } from './harness.js';
import { table, type BenchModule } from './report.js';
import { corpusFiles, writeScaleCorpus, type ScaleCorpus } from './scale-corpus.js';

const SECONDS = 15;
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** Words rare in the corpus: a few hundred to a few tens of thousands of pages per million. */
const RARE = [
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

/**
 * CPU seconds used so far by the server process and by the PostgreSQL cluster (its postmaster, the
 * backends running now and those that have exited), or NaN where `/proc` cannot tell.
 */
function cpuUsed(serverPid: number, dataDir: string): { server: number; database: number } {
  let database = Number.NaN;
  try {
    const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    database = cpuSeconds(postmaster, true);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
        if (Number(fields[1]) === postmaster) database += cpuSeconds(Number(entry));
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    // not Linux, or the cluster is gone
  }
  return { server: cpuSeconds(serverPid), database };
}

/** The options this run was given, a kept directory named DIR (its path is this machine's). */
function runOptions(): string {
  return process.argv
    .filter((value) => value.startsWith('--scale-'))
    .map((value) => (value.startsWith('--scale-dir=') ? '--scale-dir=DIR' : value))
    .join(' ');
}

function percentile(sorted: readonly number[], p: number): string {
  return (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN).toFixed(1);
}

/** Where the measured requests go, and the processes whose CPU time they cost. */
interface Target {
  readonly url: string;
  readonly key: string;
  readonly serverPid: number;
  readonly dataDir: string;
}

/** `connections` clients retrieving in a loop for SECONDS; every request is a sample. */
async function measure(target: Target, queries: readonly string[], connections: number): Promise<Array<string | number>> {
  const { url, key } = target;
  const samples: number[] = [];
  const before = cpuUsed(target.serverPid, target.dataDir);
  let errors = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      for (let n = worker; performance.now() < until; n += connections) {
        const started = performance.now();
        const response = await fetch(`${url}/v1/retrieve?${new URLSearchParams({ q: queries[n % queries.length]!, limit: '8' })}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        await response.arrayBuffer();
        if (response.status === 200) samples.push(performance.now() - started);
        else errors += 1;
      }
    }),
  );
  samples.sort((a, b) => a - b);
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

interface ScaleRun extends Imported {
  readonly sizes: Sizes;
  readonly rows: Array<Array<string | number>>;
  /** Load averages (1 / 5 / 15 min) before and after the latency measurements. */
  readonly load: string;
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

/** One library size: corpus written, imported with `npm run import`, then retrieval measured through REST. */
async function scaleRun(pages: number): Promise<ScaleRun> {
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
          : await writeScaleCorpus(join(dir, 'corpus'), pages);
      if (kept) await writeFile(written, JSON.stringify(corpus));
      server = await startServer(env);
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
    const loadBefore = loadAverage();
    for (const [name, queries] of [
      ['rare words', RARE],
      ['common words', COMMON],
    ] as const) {
      const target = { url: server.url, key, serverPid: server.pid, dataDir: database.dataDir };
      await measure(target, queries, 8); // warm-up
      for (const connections of [1, 8]) rows.push([name, ...(await measure(target, queries, connections))]);
    }
    const load = `${loadBefore} before, ${loadAverage()} after`;
    return { ...imported, sizes: await sizesOf(database.url), rows, load };
  } finally {
    await server?.stop();
    await database.stop();
    if (!kept) await rm(dir, { recursive: true, force: true });
  }
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
      `${name}: p95 at 1 connection ≤ 50 ms`,
      `${p95.toFixed(1)} ms`,
      verdict(p95 <= 50, `${(p95 - 50).toFixed(1)} ms (×${(p95 / 50).toFixed(2)})`),
    ]);
    lines.push([
      `${name}: ≥ 100 req/s at 8 connections`,
      rps,
      verdict(rps >= 100, `${100 - rps} req/s (×${(100 / Math.max(rps, 1)).toFixed(2)})`),
    ]);
  }
  const rate = Math.round(largest.corpus.pages / largest.importSeconds);
  lines.push(['import ≥ 2,000 pages/s', rate, verdict(rate >= 2000, `${2000 - rate} pages/s (×${(2000 / rate).toFixed(2)})`)]);
  return [`### Targets at ${largest.corpus.pages.toLocaleString('en')} pages`, '', table(['target', 'measured', ''], lines)].join('\n');
}

async function libraryScale(): Promise<string> {
  if (corpusFiles().length === 0) return 'Not measured: the OpenITI corpus (`../shared/corpus/openiti/`) is not beside the project.';
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
        `${corpus.books} books, ${Math.round(corpus.chars / corpus.pages)} characters per page on average. Imported ${run.importedAt} UTC,`,
        `load average (1 / 5 / 15 min) as the import ended: ${run.importLoad}; around the latency measurements: ${load}.`,
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
    'server process (facade, gateway and library subgraph: one Node.js thread) and the PostgreSQL cluster used during',
    "the row, read from `/proc`, over the row's requests — what bounds the requests per second of an idle machine.",
    `This run: \`npm run bench -- library-scale ${runOptions()}\`.`,
    `Rare-word queries: ${RARE.map((q) => `«${q}»`).join(', ')}.`,
    `Common-word queries: ${COMMON.map((q) => `«${q}»`).join(', ')}.`,
    '',
    sections.join('\n\n'),
    '',
    targets(runs),
  ].join('\n');
}

export const libraryScaleBench: BenchModule = {
  name: 'library-scale',
  title: 'Library: retrieval and import at 100,000 and 1,000,000 pages',
  run: libraryScale,
};
