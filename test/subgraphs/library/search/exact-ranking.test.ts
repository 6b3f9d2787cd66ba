import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeQueryWords, analyzeTokens } from '../../../../subgraphs/library/analysis/arabic.js';
import { LibraryImportService } from '../../../../subgraphs/library/import/library-import.service.js';
import { quranEvents } from '../../../../subgraphs/library/import/quran-demo.js';
import { DEFAULT_BM25, ROOT_WEIGHT, weightedQuery } from '../../../../subgraphs/library/search/bm25.js';
import { PostgresSearchEngine } from '../../../../subgraphs/library/search/postgres-engine.js';
import { FIXTURE, importFile, libraryDatabase, silentLogger, type LibraryDatabase } from '../../../support/library-content.js';

/**
 * The exhaustive reference: every page of the library read back from PostgreSQL, analysed here,
 * scored with BM25 (DEFAULT_BM25; IDF ln(1 + (N - df + 0.5) / (df + 0.5))) on the query's light
 * stems (weight 1) then its distinct root terms (weight ROOT_WEIGHT), term by term in that order,
 * the page length counting its words once; best first, ties by page id.
 */
interface ReferencePage {
  readonly id: string;
  readonly dl: number;
  readonly tfs: ReadonlyMap<string, number>;
}

function reference(pages: readonly ReferencePage[], query: string, k: number): Array<{ id: string; score: number }> {
  const { k1, b } = DEFAULT_BM25;
  const words = analyzeQueryWords(query);
  const roots = [...new Set(words.map((word) => word.root))];
  const terms = [...words.map((word) => word.term), ...roots];
  const n = pages.length;
  const avgdl = pages.reduce((sum, page) => sum + page.dl, 0) / n;
  const weights = terms.map((term, t) => {
    const df = pages.filter((page) => page.tfs.has(term)).length;
    return (t < words.length ? 1 : ROOT_WEIGHT) * Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  return pages
    .filter((page) => terms.some((term) => page.tfs.has(term)))
    .map((page) => {
      let score = 0;
      terms.forEach((term, t) => {
        const tf = page.tfs.get(term) ?? 0;
        if (tf > 0) score += weights[t]! * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * page.dl) / avgdl)));
      });
      return { id: page.id, score };
    })
    .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
    .slice(0, k);
}

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
  pages = rows.map((row) => {
    const tokens = analyzeTokens(row.text);
    const tfs = new Map<string, number>();
    for (const term of tokens.flatMap((token) => [token.term, token.root])) tfs.set(term, Math.min((tfs.get(term) ?? 0) + 1, 256));
    return { id: row.id, dl: tokens.length, tfs };
  });
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
      const expected = reference(pages, query, limit);
      expect(found.results.map((result) => result.pageId)).toEqual(expected.map((page) => page.id));
      found.results.forEach((result, i) => expect(result.score).toBeCloseTo(expected[i]!.score, 12));
    }
  });
});
