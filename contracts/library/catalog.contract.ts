import { z } from 'zod';
import { libraryKey } from '../access.js';
import { defineOperation } from '../operation.js';
import {
  LibraryAuthorList,
  LibraryBook,
  LibraryBookList,
  LibraryCatalogCount,
  LibraryPage,
  LibraryStats,
  LibraryToc,
  CATALOG_WINDOWS,
  TOC_WINDOW,
  window,
} from './content-types.js';
import { AuthorsWire, BookFoundWire, bookBody, BooksWire, CategoriesWire, pageBody, PageWire, partBody, TocWire } from './content-wire.js';
import { lib } from './fields.js';

/** Reading and catalog: `/v1/page`, `/v1/book`, `/v1/toc`, `/v1/books`, `/v1/categories`, `/v1/authors`, `/v1/stats`. */

export const libraryPage = defineOperation({
  service: 'library',
  name: 'libraryPage',
  kind: 'query',
  summary: 'Full text of a page',
  description: '`found: false` for an unknown id.',
  tags: ['content'],
  access: libraryKey('page'),
  input: {
    query: {
      id: lib.required().describe('Page identifier `<book_id>-<page>`.'),
      html: lib.lenientFlag().describe('`1` returns the original markup.'),
    },
  },
  output: LibraryPage,
  nullable: true,
  rest: {
    method: 'GET',
    path: '/v1/page',
    response: PageWire,
    selection: 'id bookId book { title category authors } page volume volumePage label part text markup previousId nextId',
    respond: (page, request) => ({ body: page ? pageBody(page, request.baseUrl) : { found: false, id: request.input.id } }),
  },
  mcp: { tool: 'read_page', description: 'The full text of one page by its id (`<book_id>-<page>`), from a passage’s `id`.' },
});

export const libraryBook = defineOperation({
  service: 'library',
  name: 'libraryBook',
  kind: 'query',
  summary: 'A book and its number of parts',
  description: '`found: false` for an unknown id.',
  tags: ['content'],
  access: libraryKey('book'),
  input: { query: { id: lib.required().describe('Book id.') } },
  output: LibraryBook,
  nullable: true,
  rest: {
    method: 'GET',
    path: '/v1/book',
    response: BookFoundWire,
    respond: (book, request) => ({
      body: book ? { found: true, ...bookBody(book, request.baseUrl) } : { found: false, id: request.input.id },
    }),
  },
  mcp: { tool: 'book', description: 'A book’s data by its id.' },
});

export const libraryToc = defineOperation({
  service: 'library',
  name: 'libraryToc',
  kind: 'query',
  summary: 'Table of contents of a book',
  description: 'Headings in order; `limit` default 500, capped at 5000.',
  tags: ['content'],
  access: libraryKey('toc'),
  input: { query: { book: lib.required().describe('Book id.'), ...window(TOC_WINDOW.default, TOC_WINDOW.cap) } },
  output: LibraryToc,
  rest: {
    method: 'GET',
    path: '/v1/toc',
    response: TocWire,
    selection: 'bookId book { title } total limit offset items { bookId index depth title parentIndex page }',
    respond: (toc, request) => ({
      body: {
        found: toc.book !== null,
        book_id: toc.bookId,
        book: toc.book?.title ?? null,
        total: toc.total,
        limit: toc.limit,
        offset: toc.offset,
        returned: toc.items.length,
        parts: toc.items.map((part) => partBody(part, request.baseUrl)),
      },
    }),
  },
  mcp: { tool: 'table_of_contents', description: 'The headings of a book in order, each with the page it starts on.' },
});

export const libraryBooks = defineOperation({
  service: 'library',
  name: 'libraryBooks',
  kind: 'query',
  summary: 'List of books',
  description: 'By title or author (`q`), filtered; `limit` default 20, capped at 100.',
  tags: ['content'],
  access: libraryKey('books'),
  input: {
    query: {
      q: lib.filter().describe('Part of the title or of an author name.'),
      category: lib.filter(),
      author: lib.filter(),
      ...window(CATALOG_WINDOWS.books.default, CATALOG_WINDOWS.books.cap),
      withParts: lib.lenientFlag().meta({ restOnly: true, description: 'Adds each book’s parts as `toc` (`with_parts=1` on REST).' }),
    },
  },
  output: LibraryBookList,
  rest: {
    method: 'GET',
    path: '/v1/books',
    response: BooksWire,
    selection:
      'total limit offset items { id title authors category volumes partCount pageCount sourceFormat sourceUri parts @include(if: $withParts) { bookId index depth title parentIndex page } }',
    respond: (list, request) => ({
      body: {
        total: list.total,
        limit: list.limit,
        offset: list.offset,
        returned: list.items.length,
        books: list.items.map((book) => bookBody(book, request.baseUrl)),
      },
    }),
  },
  mcp: { tool: 'books', description: 'Books of the library by title or author, with category and author filters.' },
});

export const libraryCategories = defineOperation({
  service: 'library',
  name: 'libraryCategories',
  kind: 'query',
  summary: 'Categories with their number of books',
  description: 'Most books first.',
  tags: ['content'],
  access: libraryKey('categories'),
  output: z.array(LibraryCatalogCount),
  rest: {
    method: 'GET',
    path: '/v1/categories',
    response: CategoriesWire,
    respond: (categories) => ({ body: { total: categories.length, categories } }),
  },
  mcp: { tool: 'categories', description: 'Categories of the library with their number of books.' },
});

export const libraryAuthors = defineOperation({
  service: 'library',
  name: 'libraryAuthors',
  kind: 'query',
  summary: 'Authors ordered by number of books',
  description: '`limit` default 50, capped at 500.',
  tags: ['content'],
  access: libraryKey('authors'),
  input: {
    query: {
      q: lib.filter().describe('Part of the name.'),
      limit: window(CATALOG_WINDOWS.authors.default, CATALOG_WINDOWS.authors.cap).limit,
    },
  },
  output: LibraryAuthorList,
  rest: {
    method: 'GET',
    path: '/v1/authors',
    response: AuthorsWire,
    respond: (authors) => ({ body: { total: authors.total, returned: authors.items.length, authors: authors.items } }),
  },
  mcp: { tool: 'authors', description: 'Authors of the library by number of books, optionally matching part of a name.' },
});

export const libraryStats = defineOperation({
  service: 'library',
  name: 'libraryStats',
  kind: 'query',
  summary: 'Index statistics',
  description: 'Totals of pages, parts, books, authors and categories, and the search engine in use.',
  tags: ['content'],
  access: libraryKey('stats'),
  output: LibraryStats,
  rest: { method: 'GET', path: '/v1/stats', response: LibraryStats, respond: (stats) => ({ body: stats }) },
});
