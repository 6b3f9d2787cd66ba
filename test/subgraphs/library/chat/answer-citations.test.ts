import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractAnswer, sentencesOf } from '../../../../subgraphs/library/chat/extractive-answerer.js';
import { ChatGrounding } from '../../../../subgraphs/library/chat/grounding.js';
import { LibraryImportService } from '../../../../subgraphs/library/import/library-import.service.js';
import { quranEvents } from '../../../../subgraphs/library/import/quran-demo.js';
import { PostgresSearchEngine } from '../../../../subgraphs/library/search/postgres-engine.js';
import { RetrievalService } from '../../../../subgraphs/library/search/retrieval.service.js';
import { collapse, quotedRuns } from '../../../support/library-answers.js';
import { FIXTURE, importFile, libraryDatabase, silentLogger, type LibraryDatabase } from '../../../support/library-content.js';

const QUESTIONS = [
  'ما فضل الصبر على البلاء؟',
  'متى دخل المأمون بغداد؟',
  'ما جزاء الذين آمنوا وعملوا الصالحات؟',
  'ماذا قال موسى لفرعون؟',
  'من الذين يقيمون الصلاة ويؤتون الزكاة؟',
  'ما هي الجنة التي وعد المتقون؟',
];

let db: LibraryDatabase;
let grounding: ChatGrounding;

beforeAll(async () => {
  db = await libraryDatabase();
  const engine = new PostgresSearchEngine(db.orm);
  await new LibraryImportService(engine, silentLogger).importEvents(db.orm.em.fork(), quranEvents());
  await importFile(db.orm.em.fork(), engine, 'jsonl', FIXTURE.pages);
  await importFile(db.orm.em.fork(), engine, 'openiti', FIXTURE.openiti);
  grounding = new ChatGrounding(new RetrievalService(engine, silentLogger));
}, 120_000);
afterAll(async () => {
  await db?.close();
});

describe('extractive answers from the library', () => {
  it.each(QUESTIONS)('cite only sources they quote, and each quoted sentence is in the source it cites: %s', async (question) => {
    const found = await grounding.find(db.orm.em.fork(), [{ role: 'user', content: question }], 20);
    expect(found.sources.length).toBeGreaterThan(0);
    const answer = extractAnswer(found).segments.join('');
    const quoted = quotedRuns(answer);
    expect(quoted.length).toBeGreaterThan(0);
    for (const { text, ref } of quoted) {
      const source = found.sources.find((candidate) => candidate.ref === ref);
      expect(source, `[${ref}] is not a source`).toBeDefined();
      for (const sentence of sentencesOf(text)) expect(collapse(source!.passage.text)).toContain(sentence.replace(/…/g, ''));
    }
  });

  it('draws on several sources for a question several passages answer', async () => {
    const found = await grounding.find(db.orm.em.fork(), [{ role: 'user', content: 'ما جزاء الذين آمنوا وعملوا الصالحات؟' }], 20);
    const refs = new Set(quotedRuns(extractAnswer(found).segments.join('')).map((run) => run.ref));
    expect(refs.size).toBeGreaterThan(1);
  });
});
