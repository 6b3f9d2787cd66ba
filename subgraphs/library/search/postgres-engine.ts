import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubgraphOrm } from '../../shared/orm.js';
import { DEFAULT_BM25, idf, type Bm25Parameters, type CorpusStats } from './bm25.js';
import type { TermDirectory } from './directory.js';
import { nativeQuery } from '../../shared/native-query.js';
import { PostingStore, type SliceRequest } from './posting-store.js';
import type { EngineQuery, EngineResult, SearchEngine } from './search-engine.js';
import { topK, type PageFrequency, type PostingRun, type PostingSource, type RegionRequest, type ScoredTerm } from './top-k.js';

export { DEFAULT_BM25, type Bm25Parameters } from './bm25.js';

/** The segments and their dead books: what the library's postings are made of right now. */
const SEGMENTS_SQL = 'select id, dead from library.posting_segment order by id';

/** N and the mean page length, from the book rows. */
const STATS_SQL = `
select greatest(coalesce(sum(page_count), 0), 1)::float8 as n,
       greatest(coalesce(sum(term_total), 0)::float8 / greatest(coalesce(sum(page_count), 0), 1), 1) as avgdl
from library.book`;

/** Pages holding each term, in all books (IDF) and in the searched ones (`?` null: all). */
const DF_SQL = `
select q.term, coalesce(sum(ts.df), 0)::float8 as df,
       coalesce(sum(ts.df) filter (where ts.book_id = any($1::text[])), 0)::float8 as scoped
from unnest($2::text[]) q(term)
left join library.term_stat ts on ts.term = q.term
group by q.term`;

const SCOPE_SQL = 'select coalesce(sum(page_count), 0)::float8 as pages from library.book where id = any($1::text[])';

/** Some terms of some pages' own term vectors, as tsvector text (`'term':1A,2A`): one position per occurrence. */
const FREQUENCIES_SQL = `
select c.book_id, c.page, ts_filter(setweight(p.terms, 'A', $1::text[]), '{a}')::text as found
from unnest($2::text[], $3::int[]) c(book_id, page)
join library.page p on p.book_id = c.book_id and p.page = c.page`;

/**
 * Term frequencies from the text of a tsvector (`'term':1A,2A 'other':3A`): the number of positions
 * of each lexeme. Lexemes are quoted, a quote inside doubled, a backslash escaping the next character.
 */
export function parseFrequencies(vector: string): Map<string, number> {
  const found = new Map<string, number>();
  let i = 0;
  while ((i = vector.indexOf("'", i)) >= 0) {
    let lexeme = '';
    let j = i + 1;
    for (; j < vector.length; j++) {
      const ch = vector.charAt(j);
      if (ch === '\\') lexeme += vector.charAt(++j);
      else if (ch === "'" && vector.charAt(j + 1) === "'") lexeme += vector.charAt(++j);
      else if (ch === "'") break;
      else lexeme += ch;
    }
    let positions = 0;
    let k = j + 1;
    if (vector.charAt(k) === ':') {
      positions = 1;
      for (k += 1; k < vector.length && vector.charAt(k) !== ' '; k++) if (vector.charAt(k) === ',') positions += 1;
    }
    found.set(lexeme, positions);
    i = k;
  }
  return found;
}

/** What the postings of the library add up to while its segments stay the same. */
interface LibraryState {
  readonly signature: string;
  readonly stats: CorpusStats;
  readonly df: Map<string, number>;
}

/** Reads postings (through the store) and page frequencies for one query. */
class PostgresPostings implements PostingSource {
  private readonly masks = new Map<number, Uint8Array | null>();

  constructor(
    private readonly em: EntityManager,
    private readonly store: PostingStore,
    private readonly terms: readonly string[],
    private readonly dead: ReadonlyMap<number, readonly number[]>,
    private readonly scope: ReadonlySet<string> | null,
  ) {}

  private get segments(): number[] {
    return [...this.dead.keys()];
  }

  async directories(): Promise<readonly TermDirectory[]> {
    return this.terms.map((term) => this.store.directory(term, this.segments));
  }

  /** Which of a segment's books this query reads: none of its dead ones, only those searched. */
  private keep(segment: number): Uint8Array | null {
    if (!this.masks.has(segment)) {
      const dead = this.dead.get(segment) ?? [];
      const books = this.store.booksOf(segment);
      let mask: Uint8Array | null = null;
      if (dead.length > 0 || this.scope) {
        mask = Uint8Array.from(books, (book) => (this.scope === null || this.scope.has(book) ? 1 : 0));
        for (const ref of dead) mask[ref] = 0;
      }
      this.masks.set(segment, mask);
    }
    return this.masks.get(segment)!;
  }

  async read(requests: readonly RegionRequest[]): Promise<readonly PostingRun[]> {
    const slices: Array<SliceRequest & { termIndex: number }> = [];
    for (const request of requests) {
      const term = this.terms[request.term]!;
      for (const row of this.store.rowsOf(term, this.segments)) {
        if (row.band !== request.band) continue;
        const { lo, hi } = PostingStore.positions(row, request.fromDl, request.toDl);
        if (hi > lo) slices.push({ term, row, lo, hi, termIndex: request.term });
      }
    }
    const decoded = await this.store.read(this.em, slices);
    return decoded.map((postings, i) => {
      const { row, termIndex } = slices[i]!;
      return { term: termIndex, books: this.store.booksOf(row.segment), keep: this.keep(row.segment), ...postings };
    });
  }

  async frequencies(pages: ReadonlyArray<{ bookId: string; page: number }>, terms: readonly number[]): Promise<readonly PageFrequency[]> {
    // raw SQL: search engine, term frequencies of the candidate pages from their term vectors.
    const rows = await nativeQuery<{ book_id: string; page: number; found: string }>(this.em, FREQUENCIES_SQL, [
      terms.map((t) => this.terms[t]!),
      pages.map((page) => page.bookId),
      pages.map((page) => page.page),
    ]);
    return rows.flatMap((row) => {
      const found = parseFrequencies(row.found);
      return terms
        .filter((t) => found.has(this.terms[t]!))
        .map((t) => ({ bookId: row.book_id, page: row.page, term: t, tf: found.get(this.terms[t]!)! }));
    });
  }
}

/** Pages matching any term, estimated from the terms' page counts as if they occurred independently. */
function estimateHits(scope: number, dfs: readonly number[]): number {
  if (dfs.length === 0 || scope <= 0) return 0;
  const missAll = dfs.reduce((product, df) => product * (1 - Math.min(df, scope) / scope), 1);
  const estimate = Math.round(scope * (1 - missAll));
  return Math.min(
    Math.max(estimate, Math.max(...dfs)),
    dfs.reduce((sum, df) => sum + df, 0),
  );
}

/**
 * BM25 over the posting segments in PostgreSQL: exact top-k by a threshold algorithm (`top-k.ts`),
 * reading the best postings of common terms and the whole lists of rare ones. What does not change
 * while the segments stay the same (N, mean length, document frequencies, the rows read) is kept in
 * memory between queries.
 */
export class PostgresSearchEngine implements SearchEngine {
  readonly kind = 'postgres';
  private readonly store = new PostingStore();
  private state: LibraryState | null = null;

  constructor(
    private readonly orm: SubgraphOrm,
    private readonly bm25: Bm25Parameters = DEFAULT_BM25,
  ) {}

  async health(): Promise<{ up: boolean; detail?: string | null }> {
    // raw SQL: search engine, a connectivity probe.
    await this.orm.em.fork().getConnection().execute('select 1');
    return { up: true, detail: 'postgres full text' };
  }

  /** The library's statistics for the segments `signature` names, read again when they change. */
  private async library(em: EntityManager, signature: string): Promise<LibraryState> {
    if (this.state?.signature === signature) return this.state;
    // raw SQL: search engine, corpus statistics for BM25.
    const [stats] = await nativeQuery<{ n: number; avgdl: number }>(em, STATS_SQL);
    this.state = { signature, stats: { n: Number(stats!.n), avgdl: Number(stats!.avgdl) }, df: new Map() };
    return this.state;
  }

  /** Pages holding each term in the whole library and in the searched books (cached only for the whole library). */
  private async frequencies(em: EntityManager, state: LibraryState, terms: readonly string[], scope: readonly string[] | null) {
    const wanted = scope === null ? terms.filter((term) => !state.df.has(term)) : terms;
    if (wanted.length > 0) {
      // raw SQL: search engine, document frequencies of the query terms.
      const rows = await nativeQuery<{ term: string; df: number; scoped: number }>(em, DF_SQL, [scope, wanted]);
      for (const row of rows) state.df.set(row.term, Number(row.df));
      if (scope !== null) return new Map(rows.map((row) => [row.term, Number(row.scoped)]));
    }
    return state.df;
  }

  async search(query: EngineQuery, em: EntityManager): Promise<EngineResult> {
    if (query.terms.length === 0 || query.limit < 1 || query.bookIds?.length === 0) return { hits: 0, results: [] };
    // raw SQL: search engine, the live segments and their tombstones.
    const segments = await nativeQuery<{ id: string; dead: number[] }>(em, SEGMENTS_SQL);
    const state = await this.library(em, JSON.stringify(segments));
    const scoped = await this.frequencies(em, state, query.terms, query.bookIds);
    const terms: ScoredTerm[] = query.terms
      .map((term, index) => ({
        term,
        weight: (query.weights?.[index] ?? 1) * idf(state.stats.n, state.df.get(term) ?? 0),
        df: scoped.get(term) ?? 0,
      }))
      .filter((term) => term.df > 0);
    if (terms.length === 0) return { hits: 0, results: [] };
    const dead = new Map(segments.map((segment) => [Number(segment.id), segment.dead] as const));
    await this.store.prepare(
      em,
      terms.map((term) => term.term),
      [...dead.keys()],
    );
    const scope = query.bookIds === null ? null : new Set(query.bookIds);
    const source = new PostgresPostings(
      em,
      this.store,
      terms.map((term) => term.term),
      dead,
      scope,
    );
    const found = await topK(terms, query.limit, state.stats, this.bm25, source);
    let hits = found.candidates;
    if (!found.exhaustive) {
      // raw SQL: search engine, the pages in the searched books.
      const [size] = scope === null ? [{ pages: state.stats.n }] : await nativeQuery<{ pages: number }>(em, SCOPE_SQL, [query.bookIds]);
      hits = estimateHits(
        Number(size!.pages),
        terms.map((term) => term.df),
      );
    }
    return { hits, results: found.results.map((result) => ({ pageId: result.pageId, score: result.score })) };
  }

  /** Postings are written in the import's transaction: nothing to do. */
  async indexBook(): Promise<void> {}

  async removeBook(): Promise<void> {}
}
