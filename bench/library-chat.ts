import { loadavg } from 'node:os';
import { startLibraryServer } from './harness.js';
import { table, type BenchModule } from './report.js';

const SECONDS = 10;

/** Questions of several kinds, over the demo Qur'an and the OpenITI corpus. */
const QUESTIONS = [
  'ما فضل الصبر على البلاء؟',
  'متى دخل المأمون بغداد؟',
  'ما هي المسالك والممالك في خراسان؟',
  'ما فضل الجهاد في سبيل الله؟',
  'ما فضائل القرآن بمكة والمدينة؟',
  'ما هو البديع في الشعر؟',
  'ماذا قال رسول الله صلى الله عليه وسلم في الشكر؟',
  'من هو أيوب وما صبره؟',
  'ما صفة الجنة والنار؟',
  'كيف تحسب سنة الشمس بالرصد؟',
];

interface Sample {
  readonly firstChunk: number;
  readonly firstContent: number;
  readonly total: number;
}

/** One streamed completion: time to the first SSE chunk, to the first answer text, and to `[DONE]`. */
async function streamed(url: string, key: string, question: string): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: 'library-rag', messages: [{ role: 'user', content: question }], stream: true }),
  });
  if (response.status !== 200 || !response.body) throw new Error(`chat answered ${response.status}`);
  const decoder = new TextDecoder();
  let seen = '';
  let firstChunk: number | undefined;
  let firstContent: number | undefined;
  for await (const bytes of response.body) {
    seen += decoder.decode(bytes, { stream: true });
    firstChunk ??= seen.includes('data: ') ? performance.now() - started : undefined;
    if (firstContent === undefined && /"delta":\{"content":"[^"]/.test(seen)) firstContent = performance.now() - started;
  }
  if (!seen.endsWith('data: [DONE]\n\n')) throw new Error('stream ended without [DONE]');
  const total = performance.now() - started;
  return { firstChunk: firstChunk ?? total, firstContent: firstContent ?? total, total };
}

/** `connections` clients asking in a loop for `seconds`; every sample kept. */
async function run(url: string, key: string, connections: number, seconds: number): Promise<{ samples: Sample[]; errors: number }> {
  const samples: Sample[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      for (let n = worker; performance.now() < until; n += connections) {
        try {
          samples.push(await streamed(url, key, QUESTIONS[n % QUESTIONS.length]!));
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return { samples, errors };
}

function percentile(values: readonly number[], p: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  return value.toFixed(1);
}

/** Streamed `/v1/chat/completions` with the extractive answerer, at concurrency 1 and 8, on the imported corpus. */
async function libraryChat(): Promise<string> {
  const server = await startLibraryServer();
  const { key } = server;
  try {
    await run(server.url, key, 8, 3); // warm-up
    const rows: Array<Array<string | number>> = [];
    const load = loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ');
    for (const connections of [1, 8]) {
      const { samples, errors } = await run(server.url, key, connections, SECONDS);
      /** The median and 95th percentile of one latency over the run's samples. */
      const p50p95 = (pick: (sample: Sample) => number) => {
        const values = samples.map(pick);
        return `${percentile(values, 50)} / ${percentile(values, 95)}`;
      };
      rows.push([
        connections,
        p50p95((s) => s.firstChunk),
        p50p95((s) => s.firstContent),
        p50p95((s) => s.total),
        Math.round(samples.length / SECONDS),
        errors,
      ]);
    }
    return [
      `\`POST /v1/chat/completions\` with \`stream: true\`, extractive answerer (no \`LLM_BASE_URL\`), an \`unlimited\` key, cycling`,
      `through ${QUESTIONS.length} Arabic questions; facade → in-process library stream (key admission, retrieval of 8 passages,`,
      `sentence selection) → SSE. Library: the demo Qur'an plus ${server.books} books, ${server.pages} pages (\`npm run import\` of the`,
      `OpenITI corpus), PostgreSQL engine, embedded PostgreSQL on the same machine. Clients are \`fetch\` in this process reading`,
      `the stream to \`[DONE]\`, ${SECONDS} s per run after a 3 s warm-up; every request is a sample. Latencies in ms, p50 / p95.`,
      '"First chunk" is the role + `library` chunk (grounding done); "first text" the first answer delta (the extractive',
      `answer is written at once, so both usually arrive in one read). Load average when the runs started: ${load} (shared machine).`,
      '',
      table(['connections', 'first chunk', 'first text', 'total', 'req/s', 'errors'], rows),
    ].join('\n');
  } finally {
    await server.stop();
  }
}

export const libraryChatBench: BenchModule = {
  name: 'library-chat',
  title: 'Library: streamed chat completions (extractive), time to first chunk and total',
  run: libraryChat,
};
