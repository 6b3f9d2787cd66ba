import type { EntityManager } from '@mikro-orm/postgresql';

/** A search over analysed terms (see `analysis/arabic.ts`), already filtered to known books. */
export interface EngineQuery {
  /** Distinct analysed query terms; a page matches when it contains any of them. */
  readonly terms: readonly string[];
  /**
   * Weight of each term's contribution, aligned with `terms` (1 when absent): 1 for the query's own
   * words, another weight for the root terms beside them; an engine that cannot weigh terms searches
   * the weight-1 terms only.
   */
  readonly weights?: readonly number[];
  /** Only pages of these books; `null` searches the whole library. */
  readonly bookIds: readonly string[] | null;
  readonly limit: number;
}

export interface EngineHit {
  readonly pageId: string;
  readonly score: number;
}

export interface EngineResult {
  /**
   * Pages matching the query (any term) in the whole (filtered) index, not only those returned. Exact
   * when the engine had to read every matching page; otherwise an estimate from the terms' page counts.
   */
  readonly hits: number;
  /** Best first. */
  readonly results: readonly EngineHit[];
}

/**
 * The library's search engine, behind one interface: PostgreSQL full text by
 * default, Meilisearch when configured. Pages of record stay in PostgreSQL; an
 * engine's index is derived and can be rebuilt from them.
 */
export interface SearchEngine {
  /** `postgres` or `meilisearch`. */
  readonly kind: string;
  /** Whether the engine answers; a stopped engine makes `/healthz` answer 503. */
  health(): Promise<{ up: boolean; detail?: string | null }>;
  /** Ranked pages for a query; throws when the engine fails (the service reports a 502). */
  search(query: EngineQuery, em: EntityManager): Promise<EngineResult>;
  /** Brings the engine's index in line with the committed pages of one book (after an import). */
  indexBook(bookId: string, em: EntityManager): Promise<void>;
  /** Removes a book that no longer exists in PostgreSQL from the engine's index. */
  removeBook(bookId: string): Promise<void>;
  close?(): Promise<void>;
}
