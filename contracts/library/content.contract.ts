import { z } from 'zod';
import { libraryKey } from '../access.js';
import { defineOperation } from '../operation.js';
import { LibraryRetrieveResult } from './content-types.js';
import { retrieveBody, RetrieveWire } from './content-wire.js';
import { LibraryErrorCode } from './errors.js';
import { lib } from './fields.js';
import { RETRIEVE_LIMIT_MAX } from './plans.js';

/** Passage retrieval for RAG and page-level search: `/v1/retrieve`, `/v1/search`. */

export const RETRIEVAL_BOUNDS = {
  q: { min: 2, max: 500 },
  limit: { default: 8, max: RETRIEVE_LIMIT_MAX },
  maxChars: { retrieveDefault: 700, searchDefault: 600, min: 120, max: 2000 },
} as const;

const filters = {
  book: lib.filter().describe('Book id or part of its title.'),
  category: lib.filter(),
  author: lib.filter().describe('Part of an author name.'),
};

export const libraryRetrieve = defineOperation({
  service: 'library',
  name: 'libraryRetrieve',
  kind: 'query',
  summary: 'Passage retrieval for RAG',
  description:
    'A passage cut from inside a page around the query words, with book, part and page for citation. Every bound is checked: a value outside it is a 422 listing each problem. `limit` is also bounded by the plan.',
  tags: ['content'],
  access: libraryKey('retrieve'),
  input: {
    query: {
      q: lib.text(RETRIEVAL_BOUNDS.q.min, RETRIEVAL_BOUNDS.q.max).describe('The query, 2 to 500 characters.'),
      limit: lib
        .boundedInt(1, RETRIEVAL_BOUNDS.limit.max)
        .default(RETRIEVAL_BOUNDS.limit.default)
        .describe('Passages to return (default 8).'),
      ...filters,
      maxChars: lib
        .boundedInt(RETRIEVAL_BOUNDS.maxChars.min, RETRIEVAL_BOUNDS.maxChars.max)
        .default(RETRIEVAL_BOUNDS.maxChars.retrieveDefault)
        .describe('Longest passage (default 700).'),
      pageText: lib.zeroOrOne().default(false).describe('`1` adds the whole page text as `page_text`.'),
    },
  },
  output: LibraryRetrieveResult,
  rest: {
    method: 'GET',
    path: '/v1/retrieve',
    names: { pageText: 'page' },
    response: RetrieveWire,
    respond: (result, request) => ({ body: retrieveBody(result, request.baseUrl) }),
  },
  errors: [LibraryErrorCode.invalid_parameter, LibraryErrorCode.search_unavailable],
  mcp: { tool: 'retrieve', description: 'Passages from the library around the query words, each with book, part and page to cite.' },
});

export const librarySearch = defineOperation({
  service: 'library',
  name: 'librarySearch',
  kind: 'query',
  summary: 'Page-level search',
  description:
    'Wider passages (up to twice `max_chars`) for building an index without splitting pages. Values beyond the bounds are capped, not refused.',
  tags: ['content'],
  access: libraryKey('search'),
  input: {
    query: {
      q: lib.required().describe('The query.'),
      limit: z.int32().optional().catch(undefined).describe('Default 8, capped at 20 and by the plan.'),
      ...filters,
      maxChars: z.int32().optional().catch(undefined).describe('Default 600, within 120…2000; passages up to twice this.'),
    },
  },
  output: LibraryRetrieveResult,
  rest: {
    method: 'GET',
    path: '/v1/search',
    response: RetrieveWire,
    respond: (result, request) => ({ body: retrieveBody(result, request.baseUrl) }),
  },
  errors: [LibraryErrorCode.invalid_parameter, LibraryErrorCode.search_unavailable],
  mcp: { tool: 'search', description: 'Page-level search: wider passages for whole-page reading.' },
});
