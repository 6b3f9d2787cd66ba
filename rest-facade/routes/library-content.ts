import { FacadeError, type FacadeErrorDetail } from '../facade-error.js';
import type { RouteDefinition, RouteInput, RouteResult } from '../route.js';

/**
 * Library content paths (seed 000): retrieval, search, reading and catalog, plus the admin import.
 * Links (`url`, `book_url`, …) are built here from the request's base URL (`PUBLIC_BASE_URL` when
 * set), so the subgraph stays free of HTTP paths.
 */

interface PassageData {
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

interface RetrieveData {
  query: string;
  mode: string;
  hits: number;
  returned: number;
  passages: PassageData[];
}

interface BookData {
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

interface PartData {
  bookId: string;
  index: number;
  depth: number;
  title: string;
  parentIndex: number | null;
  page: number | null;
}

interface PageData {
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
const joinAuthors = (authors: readonly string[]) => authors.join('; ');

const pageUrl = (base: string, id: string) => `${base}/v1/page?id=${encodeURIComponent(id)}`;
const bookUrl = (base: string, id: string) => `${base}/v1/book?id=${encodeURIComponent(id)}`;
const tocUrl = (base: string, id: string) => `${base}/v1/toc?book=${encodeURIComponent(id)}`;

/** A query parameter as a string, or undefined when absent or blank. */
function text(input: RouteInput, name: string): string | undefined {
  const value = input.query[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** An integer parameter; elsewhere than retrieval a malformed value simply takes the default. */
function integer(input: RouteInput, name: string): number | undefined {
  const value = text(input, name)?.trim();
  return value !== undefined && /^[+-]?\d{1,9}$/.test(value) ? Number(value) : undefined;
}

/** `1`/`true` (any case) switch a flag on. */
function flag(input: RouteInput, name: string): boolean {
  return ['1', 'true'].includes((text(input, name) ?? '').trim().toLowerCase());
}

function filters(input: RouteInput) {
  return { book: text(input, 'book'), category: text(input, 'category'), author: text(input, 'author') };
}

/** Retrieval publishes 422 for its parameters, so values that are not integers (or not 0/1) are refused here. */
function retrieveVariables(input: RouteInput): Record<string, unknown> {
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

function passageBody(passage: PassageData, base: string): Record<string, unknown> {
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

function retrieveBody(result: RetrieveData, base: string): RouteResult {
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

function partBody(part: PartData, base: string): Record<string, unknown> {
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

function bookBody(book: BookData, base: string): Record<string, unknown> {
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

function pageBody(page: PageData, base: string): Record<string, unknown> {
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
function importFormat(input: RouteInput): string {
  const type = (input.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'openiti';
  if (['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/json-lines'].includes(type)) return 'jsonl';
  return type === '' ? 'unknown' : type;
}

export const libraryContentRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/v1/retrieve',
    family: 'library',
    operation: 'LibraryRetrieve',
    variables: retrieveVariables,
    respond: (data, input) => retrieveBody(data.libraryRetrieve as RetrieveData, input.baseUrl),
  },
  {
    method: 'GET',
    path: '/v1/search',
    family: 'library',
    operation: 'LibrarySearch',
    variables: (input) => ({
      q: input.query.q ?? null,
      limit: integer(input, 'limit'),
      maxChars: integer(input, 'max_chars'),
      ...filters(input),
    }),
    respond: (data, input) => retrieveBody(data.librarySearch as RetrieveData, input.baseUrl),
  },
  {
    method: 'GET',
    path: '/v1/page',
    family: 'library',
    operation: 'LibraryPage',
    variables: (input) => ({ id: input.query.id ?? null, html: flag(input, 'html') }),
    respond: (data, input) => {
      const page = data.libraryPage as PageData | null;
      return { body: page ? pageBody(page, input.baseUrl) : { found: false, id: input.query.id ?? null } };
    },
  },
  {
    method: 'GET',
    path: '/v1/book',
    family: 'library',
    operation: 'LibraryBook',
    variables: (input) => ({ id: input.query.id ?? null }),
    respond: (data, input) => {
      const book = data.libraryBook as BookData | null;
      return { body: book ? { found: true, ...bookBody(book, input.baseUrl) } : { found: false, id: input.query.id ?? null } };
    },
  },
  {
    method: 'GET',
    path: '/v1/toc',
    family: 'library',
    operation: 'LibraryToc',
    variables: (input) => ({ book: input.query.book ?? null, limit: integer(input, 'limit'), offset: integer(input, 'offset') }),
    respond: (data, input) => {
      const toc = data.libraryToc as {
        bookId: string;
        book: { title: string } | null;
        total: number;
        limit: number;
        offset: number;
        items: PartData[];
      };
      return {
        body: {
          found: toc.book !== null,
          book_id: toc.bookId,
          book: toc.book?.title ?? null,
          total: toc.total,
          limit: toc.limit,
          offset: toc.offset,
          returned: toc.items.length,
          parts: toc.items.map((part) => partBody(part, input.baseUrl)),
        },
      };
    },
  },
  {
    method: 'GET',
    path: '/v1/books',
    family: 'library',
    operation: 'LibraryBooks',
    variables: (input) => ({
      q: text(input, 'q'),
      limit: integer(input, 'limit'),
      offset: integer(input, 'offset'),
      withParts: flag(input, 'with_parts'),
      category: text(input, 'category'),
      author: text(input, 'author'),
    }),
    respond: (data, input) => {
      const list = data.libraryBooks as { total: number; limit: number; offset: number; items: BookData[] };
      return {
        body: {
          total: list.total,
          limit: list.limit,
          offset: list.offset,
          returned: list.items.length,
          books: list.items.map((book) => bookBody(book, input.baseUrl)),
        },
      };
    },
  },
  {
    method: 'GET',
    path: '/v1/categories',
    family: 'library',
    operation: 'LibraryCategories',
    respond: (data) => {
      const categories = data.libraryCategories as Array<{ name: string; books: number }>;
      return { body: { total: categories.length, categories } };
    },
  },
  {
    method: 'GET',
    path: '/v1/authors',
    family: 'library',
    operation: 'LibraryAuthors',
    variables: (input) => ({ q: text(input, 'q'), limit: integer(input, 'limit') }),
    respond: (data) => {
      const authors = data.libraryAuthors as { total: number; items: Array<{ name: string; books: number }> };
      return { body: { total: authors.total, returned: authors.items.length, authors: authors.items } };
    },
  },
  {
    method: 'GET',
    path: '/v1/stats',
    family: 'library',
    operation: 'LibraryStats',
    respond: (data) => ({ body: data.libraryStats }),
  },
  {
    method: 'POST',
    path: '/admin/import',
    family: 'library-admin',
    operation: 'LibraryImport',
    body: 'text',
    bodyLimit: 64 * 1024 * 1024,
    variables: (input) => ({ format: importFormat(input), content: input.body as string, bookId: text(input, 'book_id') }),
    respond: (data) => {
      const result = data.libraryImport as { bookId: string; parts: number; pages: number; books: Array<Record<string, unknown>> };
      return {
        body: {
          book_id: result.bookId,
          parts: result.parts,
          pages: result.pages,
          books: result.books.map((book) => ({ book_id: book.bookId, title: book.title, parts: book.parts, pages: book.pages })),
        },
      };
    },
  },
];
