import type { EntityManager } from '@mikro-orm/postgresql';
import { Meilisearch, type Index, type Settings } from 'meilisearch';
import { analyze } from '../analysis/arabic.js';
import type { EngineQuery, EngineResult, SearchEngine } from './search-engine.js';

export interface MeilisearchOptions {
  readonly host: string;
  readonly apiKey?: string;
  /** @default 'library_pages' */
  readonly indexUid?: string;
  /** Documents per upload request. @default 500 */
  readonly batchSize?: number;
  /** How long to wait for one indexing task, in ms. @default 120000 */
  readonly taskTimeoutMs?: number;
}

/** One page as Meilisearch stores it; `key` is the page id made safe for Meilisearch ids. */
export interface PageDocument {
  readonly key: string;
  readonly page_id: string;
  readonly book_id: string;
  readonly book: string;
  readonly category: string;
  readonly authors: string[];
  readonly part: string;
  /** Our analysed terms, space-joined: the query is analysed the same way, so both engines meet on one vocabulary. */
  readonly terms: string;
  readonly text: string;
}

/**
 * Searchable: our terms first, the page text second (tokenized by Meilisearch as Arabic).
 * Filterable: what the catalog filters resolve to. No typo tolerance: on Arabic stems a typo is
 * usually another word.
 */
export const PAGE_INDEX_SETTINGS: Settings = {
  searchableAttributes: ['terms', 'text'],
  filterableAttributes: ['book_id', 'category'],
  displayedAttributes: ['page_id', 'book_id'],
  rankingRules: ['words', 'proximity', 'attribute', 'exactness'],
  typoTolerance: { enabled: false },
  localizedAttributes: [{ attributePatterns: ['terms', 'text'], locales: ['ara'] }],
  pagination: { maxTotalHits: 10_000 },
};

/** Meilisearch ids allow only `[A-Za-z0-9_-]`; page ids may hold dots, so they travel as base64url. */
export function documentKey(pageId: string): string {
  return Buffer.from(pageId, 'utf8').toString('base64url');
}

function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Meilisearch through its official client; pages of record stay in PostgreSQL and are uploaded per book. */
export class MeilisearchEngine implements SearchEngine {
  readonly kind = 'meilisearch';
  private readonly client: Meilisearch;
  private readonly index: Index<PageDocument>;
  private readonly batchSize: number;
  private readonly taskTimeoutMs: number;
  private settings: Promise<void> | null = null;

  constructor(options: MeilisearchOptions) {
    this.client = new Meilisearch({ host: options.host, apiKey: options.apiKey });
    this.index = this.client.index<PageDocument>(options.indexUid ?? 'library_pages');
    this.batchSize = options.batchSize ?? 500;
    this.taskTimeoutMs = options.taskTimeoutMs ?? 120_000;
  }

  async health(): Promise<{ up: boolean; detail?: string | null }> {
    const health = await this.client.health();
    return { up: health.status === 'available', detail: `meilisearch ${health.status}` };
  }

  async search(query: EngineQuery): Promise<EngineResult> {
    if (query.terms.length === 0 || query.limit < 1 || query.bookIds?.length === 0) return { hits: 0, results: [] };
    // Meilisearch cannot weigh terms: it is given the words' own terms, not the root terms beside them.
    const words = query.terms.filter((_, index) => (query.weights?.[index] ?? 1) === 1);
    const response = await this.index.search(words.join(' '), {
      filter: query.bookIds === null ? undefined : `book_id IN [${query.bookIds.map(quoted).join(', ')}]`,
      hitsPerPage: query.limit,
      page: 1,
      showRankingScore: true,
      attributesToRetrieve: ['page_id'],
      matchingStrategy: 'frequency',
      locales: ['ara'],
    });
    return {
      hits: response.totalHits,
      results: response.hits.map((hit) => ({ pageId: hit.page_id, score: hit._rankingScore ?? 0 })),
    };
  }

  /** Replaces the book's documents with its committed pages, uploaded in batches. */
  async indexBook(bookId: string, em: EntityManager): Promise<void> {
    await this.ensureSettings();
    await this.removeBook(bookId);
    let after = 0;
    for (;;) {
      // raw SQL: search engine, pages read in keyset batches to feed the external index.
      const rows = await em.execute<Array<Omit<PageDocument, 'key' | 'terms'> & { page: number }>>(
        `select p.id as page_id, p.book_id, b.title as book, b.category, b.authors, p.part, p.text, p.page
         from library.page p join library.book b on b.id = p.book_id
         where p.book_id = ? and p.page > ? order by p.page limit ?`,
        [bookId, after, this.batchSize],
      );
      if (rows.length === 0) return;
      const documents = rows.map(({ page: _page, ...row }) => ({
        ...row,
        key: documentKey(row.page_id),
        terms: analyze(row.text).join(' '),
      }));
      await this.index.addDocuments(documents, { primaryKey: 'key' }).waitTask({ timeout: this.taskTimeoutMs });
      after = rows.at(-1)!.page;
    }
  }

  async removeBook(bookId: string): Promise<void> {
    await this.ensureSettings();
    await this.index.deleteDocuments({ filter: `book_id = ${quoted(bookId)}` }).waitTask({ timeout: this.taskTimeoutMs });
  }

  /** Applies the index settings once per process (creating the index if needed). */
  private ensureSettings(): Promise<void> {
    this.settings ??= this.index
      .updateSettings(PAGE_INDEX_SETTINGS)
      .waitTask({ timeout: this.taskTimeoutMs })
      .then(
        () => undefined,
        (error: unknown) => {
          this.settings = null;
          throw error;
        },
      );
    return this.settings;
  }
}
