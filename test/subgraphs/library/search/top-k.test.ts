import { describe, expect, it } from 'vitest';
import { DEFAULT_BM25, idf, type CorpusStats } from '../../../../subgraphs/library/search/bm25.js';
import { mergeDirectory, type TermDirectory } from '../../../../subgraphs/library/search/directory.js';
import { BAND_STARTS, DIR_STEP } from '../../../../subgraphs/library/search/postings.js';
import {
  topK,
  type PageFrequency,
  type PostingRun,
  type PostingSource,
  type RegionRequest,
  type ScoredTerm,
} from '../../../../subgraphs/library/search/top-k.js';

/** A small seeded generator, so every run builds the same library. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Page {
  readonly book: string;
  readonly page: number;
  readonly dl: number;
  readonly tfs: ReadonlyMap<string, number>;
}

const VOCABULARY = Array.from({ length: 60 }, (_, i) => `w${i}`);

/** Pages of Zipf-distributed words: w0 is on almost every page, w59 on a few. */
function library(pages: number, seed: number): Page[] {
  const next = random(seed);
  const weights = VOCABULARY.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const word = () => {
    let left = next() * total;
    for (const [i, weight] of weights.entries()) if ((left -= weight) < 0) return VOCABULARY[i]!;
    return VOCABULARY.at(-1)!;
  };
  return Array.from({ length: pages }, (_, i) => {
    const dl = 5 + Math.floor(next() ** 2 * 400);
    const tfs = new Map<string, number>();
    for (let j = 0; j < dl; j++) {
      const w = word();
      tfs.set(w, Math.min((tfs.get(w) ?? 0) + 1, 256));
    }
    return { book: `b${i % 7}`, page: Math.floor(i / 7) + 1, dl, tfs };
  });
}

const bandOf = (tf: number) => BAND_STARTS.filter((start) => start <= tf).length - 1;

/** Postings in memory, read exactly as the PostgreSQL rows are: by band, shortest first, to within DIR_STEP. */
class MemoryPostings implements PostingSource {
  read_ = 0;
  private readonly rows: Map<string, Array<{ book: string; page: number; tf: number; dl: number }>>;

  constructor(
    private readonly pages: readonly Page[],
    private readonly terms: readonly string[],
  ) {
    this.rows = new Map();
    for (const page of pages) {
      for (const [term, tf] of page.tfs) {
        const key = `${term}:${bandOf(tf)}`;
        if (!this.rows.has(key)) this.rows.set(key, []);
        this.rows.get(key)!.push({ book: page.book, page: page.page, tf, dl: page.dl });
      }
    }
    for (const row of this.rows.values()) row.sort((a, b) => a.dl - b.dl || a.book.localeCompare(b.book) || a.page - b.page);
  }

  private row(term: number, band: number) {
    return this.rows.get(`${this.terms[term]}:${band}`) ?? [];
  }

  async directories(): Promise<readonly TermDirectory[]> {
    return this.terms.map((_, t) =>
      mergeDirectory(
        BAND_STARTS.map((_, band) => ({
          band,
          count: this.row(t, band).length,
          dir: Int32Array.from(
            this.row(t, band)
              .filter((_, i) => i % DIR_STEP === 0)
              .map((posting) => posting.dl),
          ),
        })).filter((entry) => entry.count > 0),
      ),
    );
  }

  async read(requests: readonly RegionRequest[]): Promise<readonly PostingRun[]> {
    return requests.map((request) => {
      const row = this.row(request.term, request.band);
      const slice = (dl: number) => Math.min(row.length, DIR_STEP * row.filter((_, i) => i % DIR_STEP === 0 && row[i]!.dl <= dl).length);
      const from = Math.max(0, slice(request.fromDl) - DIR_STEP);
      const postings = row.slice(from, slice(request.toDl));
      this.read_ += postings.length;
      const books = [...new Set(postings.map((posting) => posting.book))];
      return {
        term: request.term,
        books,
        keep: null,
        refs: postings.map((posting) => books.indexOf(posting.book)),
        pages: postings.map((posting) => posting.page),
        tfs: postings.map((posting) => posting.tf),
        dls: postings.map((posting) => posting.dl),
      };
    });
  }

  async frequencies(pages: ReadonlyArray<{ bookId: string; page: number }>, terms: readonly number[]): Promise<readonly PageFrequency[]> {
    return pages.flatMap(({ bookId, page }) => {
      const found = this.pages.find((candidate) => candidate.book === bookId && candidate.page === page)!;
      return terms.filter((t) => found.tfs.has(this.terms[t]!)).map((t) => ({ bookId, page, term: t, tf: found.tfs.get(this.terms[t]!)! }));
    });
  }
}

/** Every page scored, in query-term order, exactly as the engine sums. */
function exhaustive(pages: readonly Page[], terms: readonly ScoredTerm[], stats: CorpusStats, k: number) {
  const { k1, b } = DEFAULT_BM25;
  return pages
    .map((page) => {
      let score = 0;
      let matched = false;
      for (const term of terms) {
        const tf = page.tfs.get(term.term) ?? 0;
        if (tf === 0) continue;
        matched = true;
        score += term.weight * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * page.dl) / stats.avgdl)));
      }
      return { pageId: `${page.book}-${page.page}`, score, matched };
    })
    .filter((page) => page.matched)
    .sort((x, y) => y.score - x.score || (x.pageId < y.pageId ? -1 : 1))
    .slice(0, k);
}

describe('topK', () => {
  const pages = library(6000, 7);
  const stats: CorpusStats = { n: pages.length, avgdl: pages.reduce((sum, page) => sum + page.dl, 0) / pages.length };
  const df = (term: string) => pages.filter((page) => page.tfs.has(term)).length;
  const scored = (words: readonly string[], weights: readonly number[] = words.map(() => 1)) =>
    words.map((term, i) => ({ term, weight: weights[i]! * idf(stats.n, df(term)), df: df(term) }));
  const queries: string[][] = [
    ['w0'],
    ['w0', 'w1'],
    ['w1', 'w2', 'w3'],
    ['w0', 'w7', 'w40'],
    ['w3', 'w59'],
    ['w2', 'w9', 'w17', 'w31'],
    ['w58'],
  ];

  it.each(queries.map((words) => [words.join(' '), words] as const))('ranks like scoring every page: %s', async (_, words) => {
    const terms = scored(words);
    for (const k of [1, 10, 20]) {
      const found = await topK(terms, k, stats, DEFAULT_BM25, new MemoryPostings(pages, words));
      const expected = exhaustive(pages, terms, stats, k);
      expect(found.results.map((result) => result.pageId)).toEqual(expected.map((page) => page.pageId));
      found.results.forEach((result, i) => expect(result.score).toBe(expected[i]!.score));
    }
  });

  it('ranks like scoring every page with weighted terms', async () => {
    const terms = scored(['w0', 'w4', 'w12'], [1, 0.3, 2.5]);
    const found = await topK(terms, 10, stats, DEFAULT_BM25, new MemoryPostings(pages, ['w0', 'w4', 'w12']));
    expect(found.results.map((result) => [result.pageId, result.score])).toEqual(
      exhaustive(pages, terms, stats, 10).map((page) => [page.pageId, page.score]),
    );
  });

  it('reads only part of the lists of common terms', async () => {
    const source = new MemoryPostings(pages, ['w0', 'w1']);
    const found = await topK(scored(['w0', 'w1']), 10, stats, DEFAULT_BM25, source);
    expect(found.exhaustive).toBe(false);
    expect(source.read_).toBeLessThan((df('w0') + df('w1')) / 2);
  });
});
