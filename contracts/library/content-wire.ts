import { z } from 'zod';
import type { LibraryBookData, LibraryPageData, LibraryPartData, LibraryPassageData, LibraryRetrieveData } from './content-types.js';

/**
 * The snake_case bodies of the library's content paths (seed 000) and how the GraphQL
 * data becomes them. Links are built from the request's base URL (`PUBLIC_BASE_URL`
 * when set), so the subgraph stays free of HTTP paths.
 */

/** Several authors in one string, as the seed's `authors: string` asks. */
export const joinAuthors = (authors: readonly string[]) => authors.join('; ');

export const pageUrl = (base: string, id: string) => `${base}/v1/page?id=${encodeURIComponent(id)}`;
export const bookUrl = (base: string, id: string) => `${base}/v1/book?id=${encodeURIComponent(id)}`;
export const tocUrl = (base: string, id: string) => `${base}/v1/toc?book=${encodeURIComponent(id)}`;

const url = (what: string) => z.string().describe(`Absolute link to ${what}.`);

export const PassageWire = z
  .object({
    id: z.string().describe('Page identifier `<book_id>-<page_number>`.'),
    page_id: z.string().describe('Same as `id`.'),
    book_id: z.string(),
    book: z.string().describe('Book title.'),
    category: z.string(),
    authors: z.string().describe('Author names, joined by `; `.'),
    part: z.string().describe('Part or chapter.'),
    score: z.number().describe('Relevance; higher is better.'),
    start: z.int().describe('Offset of the passage inside the page.'),
    length: z.int(),
    page_chars: z.int().describe('Length of the whole page.'),
    text: z.string().describe('Exactly the page text from `start` for `length`.'),
    url: url('the full page text'),
    book_url: url('the book data'),
    page_text: z.string().optional().describe('The whole page (retrieval with `page=1` only).'),
  })
  .meta({ id: 'Passage' });

export const RetrieveWire = z
  .object({
    query: z.string().describe('The query as received.'),
    mode: z.enum(['passage', 'page']),
    hits: z.int().describe('Matching results in the whole index.'),
    returned: z.int(),
    passages: z.array(PassageWire),
  })
  .meta({ id: 'RetrieveResponse' });

const PartWire = z
  .object({
    index: z.int(),
    depth: z.int(),
    title: z.string(),
    parent: z.int().nullable(),
    page: z.int().nullable(),
    page_id: z.string().nullable(),
    url: z.string().nullable(),
  })
  .meta({ id: 'Part' });

const bookShape = {
  id: z.string(),
  title: z.string(),
  authors: z.string().describe('Author names, joined by `; `.'),
  author_list: z.array(z.string()),
  category: z.string(),
  volumes: z.int().nullable(),
  parts: z.int().describe('Number of parts.'),
  pages: z.int(),
  source_format: z.string(),
  source_uri: z.string().nullable(),
  url: url('the book'),
  toc_url: url('the table of contents'),
  toc: z.array(PartWire).optional().describe('Parts, with `with_parts=1`.'),
};

export const BookWire = z.object(bookShape).meta({ id: 'Book' });
export const BookFoundWire = z
  .union([z.object({ found: z.literal(true), ...bookShape }), z.object({ found: z.literal(false), id: z.string() })])
  .meta({ id: 'BookLookup' });

export const TocWire = z
  .object({
    found: z.boolean(),
    book_id: z.string(),
    book: z.string().nullable(),
    total: z.int(),
    limit: z.int(),
    offset: z.int(),
    returned: z.int(),
    parts: z.array(PartWire),
  })
  .meta({ id: 'Toc' });

export const BooksWire = z
  .object({ total: z.int(), limit: z.int(), offset: z.int(), returned: z.int(), books: z.array(BookWire) })
  .meta({ id: 'BookList' });

const pageShape = {
  found: z.literal(true),
  id: z.string(),
  book_id: z.string(),
  book: z.string(),
  category: z.string(),
  authors: z.string(),
  part: z.string(),
  chars: z.int(),
  text: z.string().describe('Page text (original markup when `html=1`).'),
  html: z.boolean(),
  page: z.int(),
  volume: z.string().nullable(),
  volume_page: z.int().nullable(),
  label: z.string().nullable(),
  prev_id: z.string().nullable(),
  next_id: z.string().nullable(),
  url: url('this page'),
  book_url: url('the book data'),
};

export const PageWire = z
  .union([z.object(pageShape), z.object({ found: z.literal(false), id: z.string().nullable() })])
  .meta({ id: 'PageRead' });

const countList = (key: string) => z.array(z.object({ name: z.string(), books: z.int() })).describe(`${key} with their number of books.`);
export const CategoriesWire = z.object({ total: z.int(), categories: countList('Categories') }).meta({ id: 'Categories' });
export const AuthorsWire = z.object({ total: z.int(), returned: z.int(), authors: countList('Authors') }).meta({ id: 'Authors' });

export const ImportWire = z
  .object({
    book_id: z.string(),
    parts: z.int(),
    pages: z.int(),
    books: z.array(z.object({ book_id: z.string(), title: z.string(), parts: z.int(), pages: z.int() })),
  })
  .meta({ id: 'ImportResult' });

type Wire<T extends z.ZodType> = z.input<T>;

export function passageBody(passage: LibraryPassageData, base: string): Wire<typeof PassageWire> {
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
    ...(passage.pageText === null || passage.pageText === undefined ? {} : { page_text: passage.pageText }),
  };
}

export const retrieveBody = (result: LibraryRetrieveData, base: string): Wire<typeof RetrieveWire> => ({
  query: result.query,
  mode: result.mode as 'passage' | 'page',
  hits: result.hits,
  returned: result.returned,
  passages: result.passages.map((passage) => passageBody(passage, base)),
});

export function partBody(part: LibraryPartData, base: string): Wire<typeof PartWire> {
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

export const bookBody = (book: LibraryBookData, base: string): Wire<typeof BookWire> => ({
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
});

export const pageBody = (page: LibraryPageData, base: string): Wire<typeof PageWire> => ({
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
});
