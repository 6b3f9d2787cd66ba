import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../runtime/logger.js';
import { analyzeQueryWords } from '../analysis/arabic.js';
import { filteredBookIds, type BookFilter } from '../catalog/catalog-filters.js';
import { RETRIEVAL_BOUNDS } from '../../../contracts/library/content.contract.js';
import { LibraryError } from '../library-errors.js';
import { nativeQuery } from '../../shared/native-query.js';
import { weightedQuery } from './bm25.js';
import { cutPassage } from './passage.js';
import type { EngineResult, SearchEngine } from './search-engine.js';

export interface RetrievalRequest extends Omit<BookFilter, 'q'> {
  readonly q?: string | null;
  readonly limit?: number | null;
  readonly maxChars?: number | null;
  /** Retrieval only: add the whole page text to each passage. */
  readonly withPageText?: boolean | null;
}

export interface RetrievedPassage {
  readonly id: string;
  readonly bookId: string;
  readonly book: string;
  readonly category: string;
  readonly authors: readonly string[];
  readonly part: string;
  readonly page: number;
  readonly score: number;
  readonly start: number;
  readonly length: number;
  readonly pageChars: number;
  readonly text: string;
  readonly pageText: string | null;
}

export interface RetrievalResult {
  readonly query: string;
  readonly mode: 'passage' | 'page';
  readonly hits: number;
  readonly passages: readonly RetrievedPassage[];
}

interface PageRow {
  id: string;
  book_id: string;
  page: number;
  part: string;
  text: string;
  chars: number;
  title: string;
  category: string;
  authors: string[];
}

/**
 * Passage retrieval and page search: analyses the query, resolves the catalog filters to books,
 * asks the engine for ranked pages, then cuts each passage from the page of record.
 */
export class RetrievalService {
  constructor(
    private readonly engine: SearchEngine,
    private readonly logger: Logger,
  ) {}

  /**
   * `/v1/retrieve`, its input already checked against the contract's bounds; the plan
   * may lower the largest `limit`, which only the caller's key can tell.
   */
  retrieve(
    em: EntityManager,
    request: RetrievalRequest & { readonly q: string; readonly limit: number; readonly maxChars: number },
    planLimit: number,
  ) {
    const maxLimit = Math.min(RETRIEVAL_BOUNDS.limit.max, planLimit);
    if (request.limit > maxLimit) {
      throw LibraryError.invalidParameters([{ field: 'limit', message: `must be an integer from 1 to ${maxLimit} for your plan` }]);
    }
    return this.run(em, 'passage', request.q, request, request.limit, request.maxChars, request.withPageText === true);
  }

  /** `/v1/search`: page-level passages up to twice `max_chars`; out-of-range values are capped. */
  search(em: EntityManager, request: RetrievalRequest & { readonly q: string }, planLimit: number): Promise<RetrievalResult> {
    const q = request.q;
    const limit = clamp(request.limit, RETRIEVAL_BOUNDS.limit.default, 1, Math.min(RETRIEVAL_BOUNDS.limit.max, planLimit));
    const bounds = RETRIEVAL_BOUNDS.maxChars;
    const maxChars = clamp(request.maxChars, bounds.searchDefault, bounds.min, bounds.max);
    return this.run(em, 'page', q.slice(0, RETRIEVAL_BOUNDS.q.max), request, limit, maxChars * 2, false);
  }

  private async run(
    em: EntityManager,
    mode: 'passage' | 'page',
    q: string,
    filter: BookFilter,
    limit: number,
    passageChars: number,
    withPageText: boolean,
  ): Promise<RetrievalResult> {
    const query = weightedQuery(analyzeQueryWords(q));
    const terms = query.map((term) => term.term);
    // Only the book filters: `q` here is the query, not the catalog's title search.
    const bookIds = await filteredBookIds(em, { book: filter.book, category: filter.category, author: filter.author });
    if (terms.length === 0 || bookIds?.length === 0) return { query: q, mode, hits: 0, passages: [] };
    const found = await this.ask({ terms, weights: query.map((term) => term.weight), bookIds, limit }, em);
    const pages = await this.pages(
      em,
      found.results.map((hit) => hit.pageId),
    );
    const passages: RetrievedPassage[] = [];
    for (const hit of found.results) {
      const page = pages.get(hit.pageId);
      // A page deleted since the engine indexed it (e.g. a re-import in progress) is skipped.
      if (!page) continue;
      const passage = cutPassage(page.text, terms, passageChars);
      passages.push({
        id: page.id,
        bookId: page.book_id,
        book: page.title,
        category: page.category,
        authors: page.authors,
        part: page.part,
        page: page.page,
        score: Math.round(hit.score * 10_000) / 10_000,
        start: passage.start,
        length: passage.length,
        pageChars: page.chars,
        text: passage.text,
        pageText: withPageText ? page.text : null,
      });
    }
    return { query: q, mode, hits: found.hits, passages };
  }

  private async ask(query: Parameters<SearchEngine['search']>[0], em: EntityManager): Promise<EngineResult> {
    try {
      return await this.engine.search(query, em);
    } catch (error) {
      this.logger.error({ err: error, engine: this.engine.kind }, 'search engine failed');
      throw LibraryError.searchUnavailable(this.engine.kind, error);
    }
  }

  private async pages(em: EntityManager, ids: readonly string[]): Promise<Map<string, PageRow>> {
    if (ids.length === 0) return new Map();
    // raw SQL: search engine, the ranked pages with their books in one join, parameters sent binary.
    const rows = await nativeQuery<PageRow>(
      em,
      `select p.id, p.book_id, p.page, p.part, p.text, p.chars, b.title, b.category, b.authors
       from library.page p join library.book b on b.id = p.book_id where p.id = any($1::text[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }
}

/** An integer within [min, max]; a missing or non-integer value takes the default. */
function clamp(value: number | null | undefined, fallback: number, min: number, max: number): number {
  const wanted = Number.isInteger(value) ? (value as number) : fallback;
  return Math.min(Math.max(wanted, min), max);
}
