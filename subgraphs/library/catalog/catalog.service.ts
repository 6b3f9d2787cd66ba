import type { EntityManager } from '@mikro-orm/postgresql';
import type { Window } from '../../shared/cursor-list.js';
import { BookEntity, type Book } from './book.entity.js';
import { filterKey } from '../import/book-writer.js';
import { bookCondition, type BookFilter } from './catalog-filters.js';
import { PageEntity } from './page.entity.js';
import { PartEntity, type Part } from './part.entity.js';

/** Book columns but the filter keys, for list queries mapped onto the entity. */
const BOOK_COLUMNS = [
  'id',
  'title',
  'authors',
  'category',
  'source_format',
  'source_uri',
  'source_meta',
  'volumes',
  'part_count',
  'page_count',
  'term_total',
  'imported_at',
]
  .map((column) => `b.${column}`)
  .join(', ');

export interface BookList extends Window {
  readonly total: number;
  readonly books: Book[];
}

export interface Toc extends Window {
  readonly book: Book | null;
  readonly total: number;
  readonly parts: Part[];
}

export interface PageRead {
  readonly id: string;
  readonly bookId: string;
  readonly book: Book;
  readonly page: number;
  readonly volume: string | null;
  readonly volumePage: number | null;
  readonly label: string | null;
  readonly part: string;
  /** Plain text, or the original markup when asked for and present. */
  readonly text: string;
  readonly markup: boolean;
  readonly previousId: string | null;
  readonly nextId: string | null;
}

export interface NamedCount {
  readonly name: string;
  readonly books: number;
}

export interface LibraryStats {
  readonly books: number;
  readonly parts: number;
  readonly pages: number;
  readonly authors: number;
  readonly categories: number;
}

/** Reading and catalog: pages, books, tables of contents, categories, authors and totals. */
export class CatalogService {
  async page(em: EntityManager, id: string, html: boolean): Promise<PageRead | null> {
    const page = await em.findOne(PageEntity, { id }, { populate: html ? ['markup'] : [] });
    if (!page) return null;
    const [book, neighbours] = await Promise.all([
      em.findOneOrFail(BookEntity, { id: page.bookId }),
      // raw SQL: both neighbours in one aggregate over the book's pages.
      em.execute<Array<{ previous: number | null; next: number | null }>>(
        `select max(page) filter (where page < ?) as previous, min(page) filter (where page > ?) as next
         from library.page where book_id = ?`,
        [page.page, page.page, page.bookId],
      ),
    ]);
    const { previous, next } = neighbours[0] ?? { previous: null, next: null };
    const markup = html && typeof page.markup === 'string';
    return {
      id: page.id,
      bookId: page.bookId,
      book,
      page: page.page,
      volume: page.volume ?? null,
      volumePage: page.volumePage ?? null,
      label: page.label ?? null,
      part: page.part,
      text: markup ? (page.markup as string) : page.text,
      markup,
      previousId: previous === null ? null : `${page.bookId}-${previous}`,
      nextId: next === null ? null : `${page.bookId}-${next}`,
    };
  }

  book(em: EntityManager, id: string): Promise<Book | null> {
    return em.findOne(BookEntity, { id });
  }

  async toc(em: EntityManager, bookId: string, window: Window): Promise<Toc> {
    const book = await em.findOne(BookEntity, { id: bookId });
    if (!book) return { book: null, total: 0, parts: [], ...window };
    const parts = await em.find(PartEntity, { bookId }, { orderBy: { index: 'asc' }, limit: window.limit, offset: window.offset });
    return { book, total: book.partCount, parts, ...window };
  }

  async books(em: EntityManager, filter: BookFilter, window: Window): Promise<BookList> {
    const condition = bookCondition(filter);
    // raw SQL: the shared filter condition (normalized keys) and the total in one windowed statement.
    const rows = await em.execute<Array<Record<string, unknown> & { total: string }>>(
      `select ${BOOK_COLUMNS}, count(*) over () as total from library.book b where ${condition.sql}
       order by b.title, b.id limit ? offset ?`,
      [...condition.params, window.limit, window.offset],
    );
    const total = rows.length > 0 ? Number(rows[0]?.total) : window.offset > 0 ? await this.count(em, filter) : 0;
    return { total, books: rows.map(({ total: _total, ...row }) => em.map(BookEntity, row)), ...window };
  }

  async categories(em: EntityManager): Promise<NamedCount[]> {
    // raw SQL: a grouped count.
    const rows = await em.execute<Array<{ name: string; books: string }>>(
      `select category as name, count(*) as books from library.book group by category order by count(*) desc, category`,
    );
    return rows.map((row) => ({ name: row.name, books: Number(row.books) }));
  }

  async authors(em: EntityManager, q: string | null, limit: number): Promise<{ total: number; authors: NamedCount[] }> {
    // raw SQL: authors unnested from the books' arrays, grouped and counted.
    const rows = await em.execute<Array<{ name: string; books: string; total: string }>>(
      `select a.name, count(distinct b.id) as books, count(*) over () as total
       from library.book b cross join lateral unnest(b.authors) as a(name)
       where ?::text is null or strpos(lower(a.name), lower(?)) > 0 or strpos(b.authors_key, ?) > 0
       group by a.name order by count(distinct b.id) desc, a.name limit ?`,
      [q, q, q === null ? null : filterKey(q), limit],
    );
    return {
      total: rows.length > 0 ? Number(rows[0]?.total) : 0,
      authors: rows.map((row) => ({ name: row.name, books: Number(row.books) })),
    };
  }

  async stats(em: EntityManager): Promise<LibraryStats> {
    // raw SQL: library totals in one aggregate.
    const [row] = await em.execute<Array<Record<keyof LibraryStats, string | null>>>(
      `select count(*) as books, coalesce(sum(part_count), 0) as parts, coalesce(sum(page_count), 0) as pages,
         (select count(distinct a) from library.book, unnest(authors) a) as authors,
         count(distinct category) as categories
       from library.book`,
    );
    return {
      books: Number(row?.books ?? 0),
      parts: Number(row?.parts ?? 0),
      pages: Number(row?.pages ?? 0),
      authors: Number(row?.authors ?? 0),
      categories: Number(row?.categories ?? 0),
    };
  }

  private async count(em: EntityManager, filter: BookFilter): Promise<number> {
    const condition = bookCondition(filter);
    // raw SQL: the shared filter condition (normalized keys).
    const [row] = await em.execute<Array<{ total: string }>>(
      `select count(*) as total from library.book b where ${condition.sql}`,
      condition.params,
    );
    return Number(row?.total ?? 0);
  }
}
