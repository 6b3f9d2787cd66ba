import { ERROR_JSON, integer, metered, nullable, object, query, string, type Schema } from './path-builders.js';

/**
 * Path items of the library's content operations (rest-facade/routes/library-content.ts):
 * retrieval, search, reading, catalog and the admin import. Keep in step with that
 * file; test/e2e/library-pages.e2e.ts fails when a route is not described here.
 */

const PASSAGE = object(
  {
    id: string('Page identifier `<book_id>-<page_number>`.'),
    page_id: string('Same as `id`.'),
    book_id: string('Book identifier.'),
    book: string('Book title.'),
    category: string('Classification.'),
    authors: string('Author names.'),
    part: string('Name of the part or chapter.'),
    score: { type: 'number', description: 'Relevance score.' },
    start: integer('Offset of the passage inside the page.'),
    length: integer('Passage length.'),
    page_chars: integer('Length of the whole page.'),
    text: string('Passage text.'),
    url: string('Link to the full page text.', { format: 'uri' }),
    book_url: string('Link to the book data.', { format: 'uri' }),
    page_text: string('Full page text, with `page=1` only.'),
  },
  'A passage cut from inside a page around the query words.',
);

const RETRIEVE = object({
  query: string('The query as received.'),
  mode: string('`passage` or `page`.', { enum: ['passage', 'page'] }),
  hits: integer('Matching results in the whole index.'),
  returned: integer('Passages returned.'),
  passages: { type: 'array', items: PASSAGE },
});

const PART = object({
  index: integer('Position in the table of contents.'),
  depth: integer('Nesting depth.'),
  title: string('Part or chapter title.'),
  parent: nullable('integer', 'Index of the enclosing part.'),
  page: nullable('integer', 'Page where the part starts.'),
  page_id: nullable('string', 'Identifier of that page.'),
  url: nullable('string', 'Link to that page.'),
});

const BOOK = object({
  id: string('Book identifier.'),
  title: string('Title.'),
  authors: string('Author names.'),
  author_list: { type: 'array', items: { type: 'string' } },
  category: string('Classification.'),
  volumes: nullable('integer', 'Number of volumes.'),
  parts: integer('Number of parts.'),
  pages: integer('Number of pages.'),
  source_format: string('Format the book was imported from.'),
  source_uri: nullable('string', 'Where it came from.'),
  url: string('Link to the book data.'),
  toc_url: string('Link to its table of contents.'),
  toc: { type: 'array', items: PART, description: 'With `with_parts=1` only.' },
});

const PAGE = object({
  found: { type: 'boolean', description: 'Whether the page exists.' },
  id: string('Page identifier.'),
  book_id: string('Book identifier.'),
  book: string('Title.'),
  category: string('Classification.'),
  authors: string('Authors.'),
  part: string('Part or chapter name.'),
  chars: integer('Length of text.'),
  text: string('Page text (original markup with `html=1`).'),
  html: { type: 'boolean', description: 'Whether `text` is the original markup.' },
  page: integer('Page number in the book.'),
  volume: nullable('string', 'Printed volume.'),
  volume_page: nullable('integer', 'Printed page number in the volume.'),
  label: nullable('string', 'Printed page label.'),
  prev_id: nullable('string', 'Previous page.'),
  next_id: nullable('string', 'Next page.'),
  url: string('Link to this page.'),
  book_url: string('Link to the book.'),
});

const NAMED_COUNTS = (name: string) => ({
  type: 'array',
  items: object({ name: string(`${name} name.`), books: integer('Number of books.') }),
});

const FILTERS = [
  query('book', 'Book id or part of its title.', { type: 'string' }),
  query('category', 'Category.', { type: 'string' }),
  query('author', 'Author.', { type: 'string' }),
];

export const LIBRARY_CONTENT_PATHS = {
  '/v1/retrieve': metered(
    'retrieve',
    'Passage retrieval for RAG',
    RETRIEVE,
    [
      query('q', 'The question or query.', { type: 'string', minLength: 2, maxLength: 500 }, true),
      query('limit', 'Passages to return; also bounded by the plan.', { type: 'integer', default: 8, minimum: 1, maximum: 20 }),
      ...FILTERS,
      query('max_chars', 'Longest passage.', { type: 'integer', default: 700, minimum: 120, maximum: 2000 }),
      query('page', '1 adds the full page text as `page_text`.', { type: 'integer', enum: [0, 1], default: 0 }),
    ],
    {
      '422': {
        description: 'A parameter is missing or out of range (`invalid_parameter`).',
        content: ERROR_JSON,
      },
    },
  ),
  '/v1/search': metered('search', 'Page-level search', RETRIEVE, [
    query('q', 'Query.', { type: 'string' }, true),
    query('limit', 'Results to return.', { type: 'integer', default: 8 }),
    ...FILTERS,
    query('max_chars', 'Passages are up to twice this.', { type: 'integer', default: 600 }),
  ]),
  '/v1/page': metered('page', 'Read a page', PAGE, [
    query('id', 'Page identifier `<book_id>-<page_number>`.', { type: 'string' }, true),
    query('html', '1 returns the original markup.', { type: 'integer', enum: [0, 1], default: 0 }),
  ]),
  '/v1/book': metered(
    'book',
    'Book data with its number of parts',
    object({ found: { type: 'boolean' }, ...(BOOK.properties as Schema) }),
    [query('id', 'Book identifier.', { type: 'string' }, true)],
  ),
  '/v1/toc': metered(
    'toc',
    'Table of contents of a book',
    object({
      found: { type: 'boolean' },
      book_id: string('Book identifier.'),
      book: nullable('string', 'Title.'),
      total: integer('Parts in the book.'),
      limit: { type: 'integer' },
      offset: { type: 'integer' },
      returned: { type: 'integer' },
      parts: { type: 'array', items: PART },
    }),
    [
      query('book', 'Book identifier.', { type: 'string' }, true),
      query('limit', 'Parts to return.', { type: 'integer', default: 500 }),
      query('offset', 'Parts to skip.', { type: 'integer', default: 0 }),
    ],
  ),
  '/v1/books': metered(
    'books',
    'List of books',
    object({
      total: { type: 'integer' },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
      returned: { type: 'integer' },
      books: { type: 'array', items: BOOK },
    }),
    [
      query('q', 'Searches title or author.', { type: 'string' }),
      query('category', 'Category.', { type: 'string' }),
      query('author', 'Author.', { type: 'string' }),
      query('limit', 'Books to return.', { type: 'integer', default: 20, maximum: 100 }),
      query('offset', 'Books to skip.', { type: 'integer', default: 0 }),
      query('with_parts', '1 adds each book’s parts.', { type: 'integer', enum: [0, 1], default: 0 }),
    ],
  ),
  '/v1/categories': metered(
    'categories',
    'Categories with their number of books',
    object({ total: { type: 'integer' }, categories: NAMED_COUNTS('Category') }),
  ),
  '/v1/authors': metered(
    'authors',
    'Authors ordered by number of books',
    object({ total: { type: 'integer' }, returned: { type: 'integer' }, authors: NAMED_COUNTS('Author') }),
    [
      query('q', 'Part of a name.', { type: 'string' }),
      query('limit', 'Authors to return.', { type: 'integer', default: 50, maximum: 500 }),
    ],
  ),
  '/v1/stats': metered(
    'stats',
    'Index statistics',
    object({
      books: { type: 'integer' },
      parts: { type: 'integer' },
      pages: { type: 'integer' },
      authors: { type: 'integer' },
      categories: { type: 'integer' },
      engine: { type: 'string' },
    }),
  ),
  '/admin/import': {
    post: {
      tags: ['admin'],
      operationId: 'adminImport',
      summary: 'Import books',
      description: 'Body: an OpenITI mARkdown file (`text/markdown`) or JSON Lines (`application/x-ndjson`).',
      security: [{ adminToken: [] }],
      parameters: [
        { name: 'x-admin-token', in: 'header', required: false, schema: { type: 'string', default: '' } },
        query('book_id', 'Identifier for the imported book.', { type: 'string' }),
      ],
      requestBody: {
        required: true,
        content: { 'text/markdown': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
      },
      responses: {
        '200': {
          description: 'What was imported.',
          content: {
            'application/json': {
              schema: object({
                book_id: { type: 'string' },
                parts: { type: 'integer' },
                pages: { type: 'integer' },
                books: {
                  type: 'array',
                  items: object({
                    book_id: { type: 'string' },
                    title: { type: 'string' },
                    parts: { type: 'integer' },
                    pages: { type: 'integer' },
                  }),
                },
              }),
            },
          },
        },
        '401': { $ref: '#/components/responses/AdminUnauthorized' },
        '422': { $ref: '#/components/responses/AdminValidationError' },
      },
    },
  },
};
