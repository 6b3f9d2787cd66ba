import type { RouteDefinition } from '../route.js';
import {
  type RetrieveData,
  type BookData,
  type PartData,
  type PageData,
  text,
  integer,
  flag,
  filters,
  retrieveVariables,
  retrieveBody,
  partBody,
  bookBody,
  pageBody,
  importFormat,
} from './library-content-shapes.js';

/** Library content paths (seed 000): retrieval, search, reading and catalog, plus the admin import. */
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
    operation: 'libraryImportFile',
    body: 'upload',
    variables: (input) => ({ format: importFormat(input), bookId: text(input, 'book_id') }),
    respond: (data) => {
      const result = data.libraryImportFile as { bookId: string; parts: number; pages: number; books: Array<Record<string, unknown>> };
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
