import { FacadeError, type FacadeErrorDetail } from '../facade-error.js';
import type { RouteInput, RouteResult } from '../route.js';

/**
 * Wire shapes of the library content paths, and the readers of their query strings.
 * Links (`url`, `book_url`, …) are built from the request's base URL (`PUBLIC_BASE_URL`
 * when set), so the subgraph stays free of HTTP paths.
 */
export interface PassageData {
  id: string;
  bookId: string;
  book: string;
  category: string;
  authors: string[];
  part: string;
  page: number;
  score: number;
  start: number;
  length: number;
  pageChars: number;
  text: string;
  pageText: string | null;
}

export interface RetrieveData {
  query: string;
  mode: string;
  hits: number;
  returned: number;
  passages: PassageData[];
}

export interface BookData {
  id: string;
  title: string;
  authors: string[];
  category: string;
  volumes: number | null;
  partCount: number;
  pageCount: number;
  sourceFormat: string;
  sourceUri: string | null;
  parts?: PartData[];
}

export interface PartData {
  bookId: string;
  index: number;
  depth: number;
  title: string;
  parentIndex: number | null;
  page: number | null;
}

export interface PageData {
  id: string;
  bookId: string;
  book: { title: string; category: string; authors: string[] };
  page: number;
  volume: string | null;
  volumePage: number | null;
  label: string | null;
  part: string;
  text: string;
  markup: boolean;
  previousId: string | null;
  nextId: string | null;
}

/** Several authors in one string, as the seed's `authors: string` asks. */
export const joinAuthors = (authors: readonly string[]) => authors.join('; ');

export const pageUrl = (base: string, id: string) => `${base}/v1/page?id=${encodeURIComponent(id)}`;
export const bookUrl = (base: string, id: string) => `${base}/v1/book?id=${encodeURIComponent(id)}`;
export const tocUrl = (base: string, id: string) => `${base}/v1/toc?book=${encodeURIComponent(id)}`;

/** A query parameter as a string, or undefined when absent or blank. */
export function text(input: RouteInput, name: string): string | undefined {
  const value = input.query[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** An integer parameter; elsewhere than retrieval a malformed value simply takes the default. */
export function integer(input: RouteInput, name: string): number | undefined {
  const value = text(input, name)?.trim();
  return value !== undefined && /^[+-]?\d{1,9}$/.test(value) ? Number(value) : undefined;
}

/** `1`/`true` (any case) switch a flag on. */
export function flag(input: RouteInput, name: string): boolean {
  return ['1', 'true'].includes((text(input, name) ?? '').trim().toLowerCase());
}

export function filters(input: RouteInput) {
  return { book: text(input, 'book'), category: text(input, 'category'), author: text(input, 'author') };
}

/** Retrieval publishes 422 for its parameters, so values that are not integers (or not 0/1) are refused here. */
export function retrieveVariables(input: RouteInput): Record<string, unknown> {
  const problems: FacadeErrorDetail[] = [];
  for (const name of ['limit', 'max_chars']) {
    if (text(input, name) !== undefined && integer(input, name) === undefined)
      problems.push({ field: name, message: 'must be an integer' });
  }
  const page = text(input, 'page')?.trim();
  if (page !== undefined && page !== '0' && page !== '1') problems.push({ field: 'page', message: 'must be 0 or 1' });
  if (problems.length > 0) {
    const message = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    throw new FacadeError(422, 'invalid_parameter', message, problems[0]!.field, problems);
  }
  return {
    q: input.query.q ?? null,
    limit: integer(input, 'limit'),
    maxChars: integer(input, 'max_chars'),
    pageText: page === '1',
    ...filters(input),
  };
}

export function passageBody(passage: PassageData, base: string): Record<string, unknown> {
  return {
    id: passage.id,
    page_id: passage.id,
    book_id: passage.bookId,
    book: passage.book,
    category: passage.category,
    authors: joinAuthors(passage.authors),
    part: passage.part,
    score: passage.score,
    start: passage.start,
    length: passage.length,
    page_chars: passage.pageChars,
    text: passage.text,
    url: pageUrl(base, passage.id),
    book_url: bookUrl(base, passage.bookId),
    ...(passage.pageText === null ? {} : { page_text: passage.pageText }),
  };
}

export function retrieveBody(result: RetrieveData, base: string): RouteResult {
  return {
    body: {
      query: result.query,
      mode: result.mode,
      hits: result.hits,
      returned: result.returned,
      passages: result.passages.map((passage) => passageBody(passage, base)),
    },
  };
}

export function partBody(part: PartData, base: string): Record<string, unknown> {
  const pageId = part.page === null ? null : `${part.bookId}-${part.page}`;
  return {
    index: part.index,
    depth: part.depth,
    title: part.title,
    parent: part.parentIndex,
    page: part.page,
    page_id: pageId,
    url: pageId === null ? null : pageUrl(base, pageId),
  };
}

export function bookBody(book: BookData, base: string): Record<string, unknown> {
  return {
    id: book.id,
    title: book.title,
    authors: joinAuthors(book.authors),
    author_list: book.authors,
    category: book.category,
    volumes: book.volumes,
    parts: book.partCount,
    pages: book.pageCount,
    source_format: book.sourceFormat,
    source_uri: book.sourceUri,
    url: bookUrl(base, book.id),
    toc_url: tocUrl(base, book.id),
    ...(book.parts ? { toc: book.parts.map((part) => partBody(part, base)) } : {}),
  };
}

export function pageBody(page: PageData, base: string): Record<string, unknown> {
  return {
    found: true,
    id: page.id,
    book_id: page.bookId,
    book: page.book.title,
    category: page.book.category,
    authors: joinAuthors(page.book.authors),
    part: page.part,
    chars: page.text.length,
    text: page.text,
    html: page.markup,
    page: page.page,
    volume: page.volume,
    volume_page: page.volumePage,
    label: page.label,
    prev_id: page.previousId,
    next_id: page.nextId,
    url: pageUrl(base, page.id),
    book_url: bookUrl(base, page.bookId),
  };
}

/** The import body's format, from its content type; a file without one is sniffed by the service. */
export function importFormat(input: RouteInput): string {
  const type = (input.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'openiti';
  if (['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/json-lines'].includes(type)) return 'jsonl';
  return type === '' ? 'unknown' : type;
}
