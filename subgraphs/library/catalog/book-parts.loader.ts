import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { textArray } from '../search/index-terms.js';
import type { Window } from '../../shared/cursor-list.js';
import type { Part } from './part.entity.js';

/**
 * Parts of many books in one statement per window: `books { parts(limit: 5) { … } }` costs one
 * query however many books the list holds. Loaders live as long as the request's EntityManager.
 */
const loaders = new WeakMap<EntityManager, Map<string, DataLoader<string, Part[]>>>();

function loadParts(em: EntityManager, window: Window) {
  return async (bookIds: readonly string[]): Promise<Part[][]> => {
    // raw SQL: the same window of every book's parts in one statement (row_number per book).
    const rows = await em.execute<Array<Record<string, unknown> & { book_id: string }>>(
      `select id, book_id, index, depth, title, parent_index, page from (
         select pt.*, row_number() over (partition by pt.book_id order by pt.index) as position
         from library.part pt where pt.book_id = any(?::text[])
       ) ranked where position > ? and position <= ? order by book_id, index`,
      [textArray(bookIds), window.offset, window.offset + window.limit],
    );
    const byBook = new Map<string, Part[]>();
    for (const row of rows) {
      const part = {
        id: row.id as string,
        bookId: row.book_id,
        index: row.index as number,
        depth: row.depth as number,
        title: row.title as string,
        parentIndex: (row.parent_index as number | null) ?? null,
        page: (row.page as number | null) ?? null,
      } as Part;
      const list = byBook.get(row.book_id) ?? [];
      list.push(part);
      byBook.set(row.book_id, list);
    }
    return bookIds.map((id) => byBook.get(id) ?? []);
  };
}

export function bookPartsLoader(em: EntityManager, window: Window): DataLoader<string, Part[]> {
  let byWindow = loaders.get(em);
  if (!byWindow) {
    byWindow = new Map();
    loaders.set(em, byWindow);
  }
  const key = `${window.limit}:${window.offset}`;
  let loader = byWindow.get(key);
  if (!loader) {
    loader = new DataLoader(loadParts(em, window));
    byWindow.set(key, loader);
  }
  return loader;
}
