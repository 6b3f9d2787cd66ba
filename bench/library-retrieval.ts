import autocannon from 'autocannon';
import { startLibraryServer } from './harness.js';
import { table, type BenchModule } from './report.js';

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
  const server = await startLibraryServer();
  const { key } = server;
  try {
    await measure(server.url, key, 8); // warm-up
    const rows: Array<Array<string | number>> = [];
    for (const connections of [1, 8]) {
      const result = await measure(server.url, key, connections);
      rows.push([connections, result.latency.p50, result.latency.p99, Math.round(result.requests.average), result.errors + result.non2xx]);
    }
    return [
      `\`GET /v1/retrieve?q=…&limit=8\` with an \`unlimited\` key, cycling through ${QUERIES.length} queries; facade → gateway → library`,
      `subgraph → PostgreSQL (embedded, same machine), BM25 engine. Library: the demo Qur'an plus ${server.books} books, ${server.pages} pages`,
      '(`npm run import` of the OpenITI corpus). autocannon from this process, 10 s per run after a 10 s warm-up.',
      'Latencies in ms; every call also pays key authentication and quota accounting (see the library-auth section).',
      '',
      table(['connections', 'p50', 'p99', 'req/s', 'errors + non-2xx'], rows),
    ].join('\n');
  } finally {
    await server.stop();
  }
}

export const libraryRetrievalBench: BenchModule = {
  name: 'library-retrieval',
  title: 'Library: retrieval latency on the imported corpus',
  run: libraryRetrieval,
};
