import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeQueryWords } from '../../../../subgraphs/library/analysis/arabic.js';
import { LibraryImportService } from '../../../../subgraphs/library/import/library-import.service.js';
import { quranEvents } from '../../../../subgraphs/library/import/quran-demo.js';
import { weightedQuery } from '../../../../subgraphs/library/search/bm25.js';
import { PostgresSearchEngine } from '../../../../subgraphs/library/search/postgres-engine.js';
import { referencePage, referenceTopK, type ReferencePage } from '../../../support/bm25-reference.js';
import { FIXTURE, importFile, libraryDatabase, silentLogger, type LibraryDatabase } from '../../../support/library-content.js';

const QUERIES = [
  // Common words of the Qur'an: their lists cover a large share of the pages.
  'الله',
  'قال الله',
  'رسول الله',
  'يا أيها الذين آمنوا',
  'إن الله غفور رحيم',
  'الذين كفروا',
  // Rarer words, alone and beside common ones.
  'الصبر',
  'الصبر على البلاء',
  'موسى وفرعون',
  'ما هو الصبر',
  'بغداد دجلة',
  'أقيموا الصلاة وآتوا الزكاة',
];

let db: LibraryDatabase;
let engine: PostgresSearchEngine;
let pages: ReferencePage[];

beforeAll(async () => {
  db = await libraryDatabase();
  engine = new PostgresSearchEngine(db.orm);
  // Three imports, hence three segments, and one book stored twice so the first copy is dead.
  await new LibraryImportService(engine, silentLogger).importEvents(db.orm.em.fork(), quranEvents());
  await importFile(db.orm.em.fork(), engine, 'jsonl', FIXTURE.pages);
  await importFile(db.orm.em.fork(), engine, 'openiti', FIXTURE.openiti);
  await importFile(db.orm.em.fork(), engine, 'jsonl', FIXTURE.pages);
  const rows = await db.orm.em.fork().execute<Array<{ id: string; text: string }>>('select id, text from library.page');
  pages = rows.map((row) => referencePage(row.id, row.text));
}, 120_000);
afterAll(async () => {
  await db?.close();
});

describe('PostgreSQL engine ranking', () => {
  it('covers a library where common terms are on a large share of the pages', () => {
    expect(pages.length).toBeGreaterThan(500);
    expect(pages.filter((page) => page.tfs.has('الله')).length).toBeGreaterThan(pages.length / 2);
  });

  it.each(QUERIES)('equals the exhaustive BM25 top 10, ids and scores: %s', async (query) => {
    const weighted = weightedQuery(analyzeQueryWords(query));
    const terms = weighted.map((term) => term.term);
    const weights = weighted.map((term) => term.weight);
    for (const limit of [10, 20]) {
      const found = await engine.search({ terms, weights, bookIds: null, limit }, db.orm.em.fork());
      const expected = referenceTopK(pages, query, limit);
      expect(found.results.map((result) => result.pageId)).toEqual(expected.map((page) => page.id));
      found.results.forEach((result, i) => expect(result.score).toBeCloseTo(expected[i]!.score, 12));
    }
  });
});
