import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentenceSpans } from '../../subgraphs/library/analysis/sentences.js';
import { referencePage, referenceTopK, type ReferencePage } from '../support/bm25-reference.js';
import { collapse, quotedRuns } from '../support/library-answers.js';
import { json } from '../support/library-keys.js';
import { getWithKey, startLibraryStack } from '../support/library-stack.js';
import type { TestStack } from '../support/stack.js';

/**
 * Issue 17 over the real path (REST facade → gateway → library subgraph → PostgreSQL): the ranking
 * `/v1/retrieve` returns is the exhaustive BM25 scorer's, and `/v1/chat/completions` answers quote
 * whole sentences of the sources they cite and cite no source they do not quote.
 */

let stack: TestStack;
let key: string;
let pages: ReferencePage[];
/** Each page's text as stored. */
const texts = new Map<string, string>();

beforeAll(async () => {
  // The demo Qur'an on first start, then two imports and one of them again (its first copy dead in its segment).
  ({ stack, key } = await startLibraryStack(['pages', 'openiti', 'pages'], { DEMO_LIBRARY: 'true' }));
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; text: string }>('select id, text from library.page');
    pages = rows.map((row) => referencePage(row.id, row.text));
    for (const row of rows) texts.set(row.id, row.text);
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  await stack?.stop();
});

const QUERIES = [
  'قال الله',
  'رسول الله',
  'يا أيها الذين آمنوا',
  'الذين كفروا',
  'الصبر على البلاء',
  'موسى وفرعون',
  'ما هو الصبر',
  'بغداد دجلة',
];

describe('GET /v1/retrieve ranks as the exhaustive BM25 scorer', () => {
  it("holds the demo Qur'an and the imports, common terms on most pages", () => {
    expect(pages.length).toBeGreaterThan(500);
    expect(pages.filter((page) => page.tfs.has('الله')).length).toBeGreaterThan(pages.length / 2);
  });

  it.each(QUERIES)('returns the top 10 pages, in order and with their scores, of scoring every page: %s', async (query) => {
    const { status, body } = await getWithKey(stack, key, '/v1/retrieve', { q: query, limit: 10 });
    expect(status).toBe(200);
    const expected = referenceTopK(pages, query, 10);
    expect(body.passages.map((passage: { page_id: string }) => passage.page_id)).toEqual(expected.map((page) => page.id));
    body.passages.forEach((passage: { score: number }, i: number) => expect(passage.score).toBeCloseTo(expected[i]!.score, 4));
  });
});

interface Completion {
  choices: Array<{ message: { content: string } }>;
  library: { sources: Array<{ ref: number; page_id: string; text: string }> };
}

const QUESTIONS = [
  'ما جزاء الذين آمنوا وعملوا الصالحات؟',
  'ماذا قال موسى لفرعون؟',
  'من الذين يقيمون الصلاة ويؤتون الزكاة؟',
  'متى دخل المأمون بغداد؟',
  'ما فضل الصبر على البلاء؟',
];

async function ask(question: string): Promise<Completion> {
  const response = await stack.fetch(
    '/v1/chat/completions',
    json({ model: 'library-rag', messages: [{ role: 'user', content: question }] }, { authorization: `Bearer ${key}` }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Completion;
}

describe('POST /v1/chat/completions answers from what it cites', () => {
  it.each(QUESTIONS)('quotes whole sentences of its sources, each run cited by the source it comes from: %s', async (question) => {
    const completion = await ask(question);
    const quoted = quotedRuns(completion.choices[0]!.message.content);
    expect(quoted.length).toBeGreaterThan(0);
    for (const { text, ref } of quoted) {
      const source = completion.library.sources.find((candidate) => candidate.ref === ref);
      expect(source, `[${ref}] is not among the sources`).toBeDefined();
      const page = texts.get(source!.page_id)!;
      const wholeSentences = new Set(sentenceSpans(page).map((span) => collapse(page.slice(span.start, span.end))));
      for (const span of sentenceSpans(text)) {
        const sentence = collapse(text.slice(span.start, span.end));
        expect(collapse(source!.text), `[${ref}] does not hold «${sentence}»`).toContain(sentence.replace(/…/g, ''));
        // A sentence is quoted whole unless the passage cut it, which the answer marks with an ellipsis.
        if (!sentence.includes('…'))
          expect(wholeSentences, `«${sentence}» is not a whole sentence of ${source!.page_id}`).toContain(sentence);
      }
    }
  });

  it('draws on several top passages, and cites each of them by its own number', async () => {
    const completion = await ask(QUESTIONS[0]!);
    const refs = quotedRuns(completion.choices[0]!.message.content).map((run) => run.ref);
    expect(new Set(refs).size).toBeGreaterThan(1);
    // Runs come in source order and each source is cited once, where its sentences end.
    expect(refs).toEqual([...new Set(refs)].sort((a, b) => a - b));
  });
});
