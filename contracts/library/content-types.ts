import { z } from 'zod';

/** GraphQL types of retrieval, reading, catalog and import (camelCase); REST bodies are in `content-wire.ts`. */

export const LibraryPassage = z
  .object({
    id: z.string().describe('Page identifier `<book_id>-<page>`.'),
    bookId: z.string(),
    book: z.string().describe('Book title.'),
    category: z.string(),
    authors: z.array(z.string()),
    part: z.string().describe('Part or chapter the page belongs to.'),
    page: z.int().describe('Page number within the book (1…n across volumes).'),
    score: z.number().describe('BM25 relevance (PostgreSQL) or ranking score (Meilisearch); higher is better.'),
    start: z.int().describe('Offset of the passage in the page text (UTF-16 code units).'),
    length: z.int(),
    pageChars: z.int().describe('Length of the whole page text.'),
    text: z.string().describe('Exactly `pageText.slice(start, start + length)`.'),
    pageText: z.string().nullable().describe('The whole page text, when asked for.'),
  })
  .meta({ id: 'LibraryPassage', description: 'A passage cut from inside a page around the query words, with what a citation needs.' });

export const LibraryRetrieveResult = z
  .object({
    query: z.string().describe('The query as received.'),
    mode: z.string().describe('`passage` (retrieve) or `page` (search).'),
    hits: z.int().describe('Number of matching pages in the whole (filtered) index.'),
    passages: z.array(LibraryPassage),
    returned: z.int(),
  })
  .meta({ id: 'LibraryRetrieveResult', description: 'Ranked passages for a query.' });

export const LibraryPart = z
  .object({
    bookId: z.string(),
    index: z.int().describe('Position of the heading in the book, from 1.'),
    depth: z.int(),
    title: z.string(),
    parentIndex: z.int().nullable().describe('`index` of the enclosing heading.'),
    page: z.int().nullable().describe('Number of the page on which the heading stands.'),
  })
  .meta({ id: 'LibraryPart', description: 'A heading of a book; `depth` nests headings (1 = top level).' });

/** A window of a list: `limit` default and cap, `offset` from 0. */
export const window = (limit: number, cap: number) => ({
  limit: z.int32().optional().catch(undefined).describe(`Default ${limit}, capped at ${cap}.`),
  offset: z.int32().optional().catch(undefined).describe('Items to skip (default 0).'),
});

export const TOC_WINDOW = { default: 500, cap: 5000 } as const;

/** Documented windows of the catalog lists; a value beyond one is capped to it (only retrieval answers 422). */
export const CATALOG_WINDOWS = {
  books: { default: 20, cap: 100 },
  authors: { default: 50, cap: 500 },
  toc: TOC_WINDOW,
} as const;

export const LibraryBook = z
  .object({
    id: z.string(),
    title: z.string(),
    authors: z.array(z.string()),
    category: z.string(),
    volumes: z.int().nullable().describe('Printed volumes, when the source says.'),
    partCount: z.int(),
    pageCount: z.int(),
    sourceFormat: z.string().describe('`openiti`, `jsonl` or `quran-json`.'),
    sourceUri: z.string().nullable().describe('OpenITI URI of the text, when it has one.'),
    parts: z
      .array(LibraryPart)
      .optional()
      .meta({ args: window(TOC_WINDOW.default, TOC_WINDOW.cap), description: 'Headings in order; `limit` default 500, capped at 5000.' }),
  })
  .meta({ id: 'LibraryBook', description: 'A book of the library.' });

export const LibraryBookList = z
  .object({
    total: z.int().describe('Books matching the filters, in all windows.'),
    limit: z.int(),
    offset: z.int(),
    items: z.array(LibraryBook),
  })
  .meta({ id: 'LibraryBookList', description: 'One window of the book list.' });

export const LibraryToc = z
  .object({
    bookId: z.string(),
    book: LibraryBook.nullable().describe('Null when no book has this id.'),
    total: z.int(),
    limit: z.int(),
    offset: z.int(),
    items: z.array(LibraryPart),
  })
  .meta({ id: 'LibraryToc', description: 'One window of the table of contents of a book.' });

export const LibraryPage = z
  .object({
    id: z.string().describe('`<book_id>-<page>`.'),
    bookId: z.string(),
    book: LibraryBook,
    page: z.int().describe('Page number within the book, 1…n across volumes.'),
    volume: z.string().nullable().describe('Printed volume (OpenITI `PageV01P005` → "01").'),
    volumePage: z.int().nullable().describe('Printed page number within its volume.'),
    label: z.string().nullable().describe('Original page label, e.g. `V01P005`.'),
    part: z.string(),
    text: z.string().describe('Plain text, or the original markup when `html` was asked for.'),
    markup: z.boolean().describe('Whether `text` is the original markup.'),
    previousId: z.string().nullable(),
    nextId: z.string().nullable(),
  })
  .meta({ id: 'LibraryPage', description: 'The full text of one page.' });

export const LibraryCatalogCount = z
  .object({ name: z.string(), books: z.int() })
  .meta({ id: 'LibraryCatalogCount', description: 'A category or author with its number of books.' });

export const LibraryAuthorList = z
  .object({
    total: z.int().describe('Authors matching `q`, in all.'),
    items: z.array(LibraryCatalogCount).describe('Ordered by number of books, most first.'),
  })
  .meta({ id: 'LibraryAuthorList' });

export const LibraryStats = z
  .object({
    books: z.int(),
    parts: z.int(),
    pages: z.int(),
    authors: z.int(),
    categories: z.int(),
    engine: z.string().describe('Search engine in use: `postgres` or `meilisearch`.'),
  })
  .meta({ id: 'LibraryStats', description: 'Totals of the index.' });

const LibraryImportedBook = z
  .object({ bookId: z.string(), title: z.string(), parts: z.int(), pages: z.int() })
  .meta({ id: 'LibraryImportedBook', description: 'One book stored by an import.' });

export const LibraryImportResult = z
  .object({
    bookId: z.string().describe('The (first) book imported.'),
    parts: z.int().describe('Parts of all books imported.'),
    pages: z.int().describe('Pages of all books imported.'),
    books: z.array(LibraryImportedBook),
  })
  .meta({ id: 'LibraryImportResult', description: 'What an import stored; a JSON Lines file may hold several books.' });

export type LibraryPassageData = z.output<typeof LibraryPassage>;
export type LibraryRetrieveData = z.output<typeof LibraryRetrieveResult>;
export type LibraryBookData = z.output<typeof LibraryBook>;
export type LibraryPartData = z.output<typeof LibraryPart>;
export type LibraryPageData = z.output<typeof LibraryPage>;
export type LibraryImportData = z.output<typeof LibraryImportResult>;
