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
  close?(): Promise<void>;
}
