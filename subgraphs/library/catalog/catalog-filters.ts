import type { EntityManager } from '@mikro-orm/postgresql';
import { filterKey } from '../import/book-writer.js';

/** Catalog filters as clients send them: `book` is an id or part of a title, `author` part of a name. */
export interface BookFilter {
  readonly book?: string | null;
  readonly category?: string | null;
  readonly author?: string | null;
  /** Part of the title or of an author's name (`/v1/books?q=`). */
  readonly q?: string | null;
}

export interface SqlCondition {
  readonly sql: string;
  readonly params: unknown[];
}

function present(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** True when at least one filter is set. */
export function hasFilter(filter: BookFilter): boolean {
  return [filter.book, filter.category, filter.author, filter.q].some((value) => present(value) !== null);
}

/** A `where` condition on `library.book` (alias `b`) for the filters; titles and names compare normalized. */
export function bookCondition(filter: BookFilter): SqlCondition {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const book = present(filter.book);
  if (book !== null) {
    clauses.push('(b.id = ? or strpos(b.title_key, ?) > 0)');
    params.push(book, filterKey(book));
  }
  const category = present(filter.category);
  if (category !== null) {
    clauses.push('lower(b.category) = lower(?)');
    params.push(category);
  }
  const author = present(filter.author);
  if (author !== null) {
    clauses.push('strpos(b.authors_key, ?) > 0');
    params.push(filterKey(author));
  }
  const q = present(filter.q);
  if (q !== null) {
    clauses.push('(strpos(b.title_key, ?) > 0 or strpos(b.authors_key, ?) > 0)');
    params.push(filterKey(q), filterKey(q));
  }
  return { sql: clauses.length > 0 ? clauses.join(' and ') : 'true', params };
}

/** Ids of the books a filter admits, or null when no filter is set (the whole library). */
export async function filteredBookIds(em: EntityManager, filter: BookFilter): Promise<string[] | null> {
  if (!hasFilter(filter)) return null;
  const condition = bookCondition(filter);
  // raw SQL: the shared filter condition (normalized keys).
  const rows = await em.execute<Array<{ id: string }>>(`select b.id from library.book b where ${condition.sql}`, condition.params);
  return rows.map((row) => row.id);
}
