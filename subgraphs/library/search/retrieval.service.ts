import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../runtime/logger.js';
import { analyzeQuery } from '../analysis/arabic.js';
import { filteredBookIds, type BookFilter } from '../catalog/catalog-filters.js';
import { LibraryError, type ParameterProblem } from '../library-errors.js';
import { textArray } from './index-terms.js';
import { cutPassage } from './passage.js';
import type { EngineResult, SearchEngine } from './search-engine.js';

/** Documented bounds of retrieval (`/v1/retrieve`) and page search (`/v1/search`). */
export const RETRIEVAL_BOUNDS = {
  q: { min: 2, max: 500 },
  limit: { default: 8, max: 20 },
  maxChars: { retrieveDefault: 700, searchDefault: 600, min: 120, max: 2000 },
} as const;

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

  /** `/v1/retrieve`: every bound is checked and a violation is a 422 listing each problem. */
  retrieve(em: EntityManager, request: RetrievalRequest, planLimit: number): Promise<RetrievalResult> {
    const problems: ParameterProblem[] = [];
    const q = request.q ?? '';
    const { min, max } = RETRIEVAL_BOUNDS.q;
    if (request.q === null || request.q === undefined || q.trim() === '') problems.push({ field: 'q', message: 'is required' });
    else if (q.trim().length < min || q.length > max) problems.push({ field: 'q', message: `must be ${min} to ${max} characters long` });
    const maxLimit = Math.min(RETRIEVAL_BOUNDS.limit.max, planLimit);
    const limit = request.limit ?? RETRIEVAL_BOUNDS.limit.default;
    if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
      const plan = planLimit < RETRIEVAL_BOUNDS.limit.max ? ' for your plan' : '';
      problems.push({ field: 'limit', message: `must be an integer from 1 to ${maxLimit}${plan}` });
    }
    const bounds = RETRIEVAL_BOUNDS.maxChars;
    const maxChars = request.maxChars ?? bounds.retrieveDefault;
    if (!Number.isInteger(maxChars) || maxChars < bounds.min || maxChars > bounds.max) {
      problems.push({ field: 'max_chars', message: `must be an integer from ${bounds.min} to ${bounds.max}` });
    }
    if (problems.length > 0) throw LibraryError.invalidParameters(problems);
    return this.run(em, 'passage', q, request, limit, maxChars, request.withPageText === true);
  }

  /** `/v1/search`: page-level passages up to twice `max_chars`; out-of-range values are capped. */
  search(em: EntityManager, request: RetrievalRequest, planLimit: number): Promise<RetrievalResult> {
    const q = request.q ?? '';
    if (q.trim() === '') throw LibraryError.invalidParameters([{ field: 'q', message: 'is required' }]);
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
    const terms = [...new Set(analyzeQuery(q))];
    // Only the book filters: `q` here is the query, not the catalog's title search.
    const bookIds = await filteredBookIds(em, { book: filter.book, category: filter.category, author: filter.author });
    if (terms.length === 0 || bookIds?.length === 0) return { query: q, mode, hits: 0, passages: [] };
    const found = await this.ask({ terms, bookIds, limit }, em);
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
    const rows = await em.execute<PageRow[]>(
      `select p.id, p.book_id, p.page, p.part, p.text, p.chars, b.title, b.category, b.authors
       from library.page p join library.book b on b.id = p.book_id where p.id = any(?::text[])`,
      [textArray(ids)],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }
}

/** An integer within [min, max]; a missing or non-integer value takes the default. */
function clamp(value: number | null | undefined, fallback: number, min: number, max: number): number {
  const wanted = Number.isInteger(value) ? (value as number) : fallback;
  return Math.min(Math.max(wanted, min), max);
}
