import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubgraphOrm } from '../../shared/orm.js';
import { anyTermQuery, textArray } from './index-terms.js';
import type { EngineQuery, EngineResult, SearchEngine } from './search-engine.js';

/** BM25 parameters; tuned on the Qur'an QA 2023 training questions (see docs/benchmarks.md). */
export interface Bm25Parameters {
  /** Term-frequency saturation. */
  readonly k1: number;
  /** Length normalisation (0 = none, 1 = full). */
  readonly b: number;
}

export const DEFAULT_BM25: Bm25Parameters = { k1: 1.2, b: 0.3 };

/**
 * BM25 in one statement. Candidates come from the GIN index on `page.terms` (any query term);
 * each candidate's term frequencies are read from its tsvector (positions per lexeme, after
 * `setweight`+`ts_filter` keep only the query's lexemes); IDF comes from the per-book document
 * frequencies in `term_stat`, N and the mean page length from the book rows.
 */
const BM25_SQL = `
with stats as (
  select greatest(coalesce(sum(page_count), 0), 1)::float8 as n,
         greatest(coalesce(sum(term_total), 0)::float8 / greatest(coalesce(sum(page_count), 0), 1), 1) as avgdl
  from library.book
),
query_terms as (
  select ts.term, ln(1 + (s.n - sum(ts.df) + 0.5) / (sum(ts.df) + 0.5)) as idf
  from library.term_stat ts cross join stats s
  where ts.term = any(?::text[])
  group by ts.term, s.n
),
candidates as (
  select p.id, p.term_count, p.terms
  from library.page p
  where p.terms @@ ?::tsquery and (?::text[] is null or p.book_id = any(?::text[]))
),
scored as (
  select c.id,
         sum(q.idf * m.tf * (?::float8 + 1) / (m.tf + ?::float8 * (1 - ?::float8 + ?::float8 * c.term_count / s.avgdl))) as score
  from candidates c
  cross join stats s
  cross join lateral (
    select u.lexeme, coalesce(array_length(u.positions, 1), 1) as tf
    from unnest(ts_filter(setweight(c.terms, 'A', ?::text[]), '{a}')) u
  ) m
  join query_terms q on q.term = m.lexeme
  group by c.id
)
select id, score, count(*) over () as hits from scored order by score desc, id limit ?`;

/** Full-text search in PostgreSQL itself: it is up exactly when the database is. */
export class PostgresSearchEngine implements SearchEngine {
  readonly kind = 'postgres';

  constructor(
    private readonly orm: SubgraphOrm,
    private readonly bm25: Bm25Parameters = DEFAULT_BM25,
  ) {}

  async health(): Promise<{ up: boolean; detail?: string | null }> {
    await this.orm.em.fork().getConnection().execute('select 1');
    return { up: true, detail: 'postgres full text' };
  }

  async search(query: EngineQuery, em: EntityManager): Promise<EngineResult> {
    if (query.terms.length === 0 || query.limit < 1 || query.bookIds?.length === 0) return { hits: 0, results: [] };
    const terms = textArray(query.terms);
    const books = query.bookIds === null ? null : textArray(query.bookIds);
    const { k1, b } = this.bm25;
    const rows = await em.execute<Array<{ id: string; score: number; hits: string | number }>>(BM25_SQL, [
      terms,
      anyTermQuery(query.terms),
      books,
      books,
      k1,
      k1,
      b,
      b,
      terms,
      query.limit,
    ]);
    return {
      hits: rows.length > 0 ? Number(rows[0]?.hits) : 0,
      results: rows.map((row) => ({ pageId: row.id, score: Number(row.score) })),
    };
  }

  /** The terms live in the page rows, written in the import's transaction: nothing to do. */
  async indexBook(): Promise<void> {}

  async removeBook(): Promise<void> {}
}
