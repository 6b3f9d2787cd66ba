import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { ROOT, corpusFiles, startServer } from './harness.js';
import { table, type BenchModule } from './report.js';

const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** Queries of several kinds: rare words, common words, a Qur'an phrase, names and places. */
const QUERIES = [
  'الصبر على البلاء',
  'فضل الصبر والشكر',
  'بغداد دجلة',
  'المأمون',
  'الجهاد في سبيل الله',
  'الحمد لله رب العالمين',
  'فضائل القرآن بمكة والمدينة',
  'قال رسول الله صلى الله عليه وسلم',
  'البديع في الشعر',
  'المسالك والممالك خراسان',
  'الجنة والنار',
  'أيوب',
];

async function measure(url: string, key: string, connections: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration: 10,
    headers: { authorization: `Bearer ${key}` },
    requests: QUERIES.map((q) => ({ method: 'GET' as const, path: `/v1/retrieve?${new URLSearchParams({ q, limit: '8' })}` })),
  });
}

/** `/v1/retrieve` latency at concurrency 8 (and 1) on the demo Qur'an plus the imported corpus. */
async function libraryRetrieval(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'qantara-bench-retrieval-'));
  const database = await startEmbeddedPostgres(join(dir, 'pg'));
  const env = { DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DEMO_LIBRARY: 'true', ADMIN_TOKEN };
  let server: { url: string; stop: () => Promise<void> } | undefined;
  try {
    server = await startServer(env);
    const files = corpusFiles();
    const imported = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...files], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    });
    const summary = /(\d+) book\(s\), (\d+) pages/.exec(imported.stdout)?.slice(1) ?? ['?', '?'];
    const issued = await fetch(`${server.url}/admin/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ email: 'bench@example.org', plan: 'unlimited' }),
    });
    const { key } = (await issued.json()) as { key: string };
    await measure(server.url, key, 8); // warm-up
    const rows: Array<Array<string | number>> = [];
    for (const connections of [1, 8]) {
      const result = await measure(server.url, key, connections);
      rows.push([connections, result.latency.p50, result.latency.p99, Math.round(result.requests.average), result.errors + result.non2xx]);
    }
    return [
      `\`GET /v1/retrieve?q=…&limit=8\` with an \`unlimited\` key, cycling through ${QUERIES.length} queries; facade → gateway → library`,
      `subgraph → PostgreSQL (embedded, same machine), BM25 engine. Library: the demo Qur'an plus ${summary[0]} books, ${summary[1]} pages`,
      '(`npm run import` of the OpenITI corpus). autocannon from this process, 10 s per run after a 10 s warm-up.',
      'Latencies in ms; every call also pays key authentication and quota accounting (see the library-auth section).',
      '',
      table(['connections', 'p50', 'p99', 'req/s', 'errors + non-2xx'], rows),
    ].join('\n');
  } finally {
    await server?.stop();
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export const libraryRetrievalBench: BenchModule = {
  name: 'library-retrieval',
  title: 'Library: retrieval latency on the imported corpus',
  run: libraryRetrieval,
};
