import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OperationsError } from '../operations.errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A cursor list (`{items, nextCursor}`) over one table: rows in `order` (a column, then
 * `id` to break ties), the cursor the `id` of the previous page's last item, read with a
 * keyset condition so a page costs the same however deep it is.
 */
export interface CursorQuery {
  /** Schema-qualified, quoted table. */
  readonly table: string;
  /** SQL conditions joined with `and`; `?` placeholders bound from `params`. */
  readonly where?: readonly string[];
  readonly params?: readonly unknown[];
  /** Equality filters, column → value; an undefined value filters nothing. */
  readonly equals?: Readonly<Record<string, unknown>>;
  /** Other filters, an SQL condition with one `?` → its value; an undefined value filters nothing. */
  readonly conditions?: Readonly<Record<string, unknown>>;
  /** Column to order by, `id` breaking ties (default `id`). */
  readonly orderBy?: string;
  readonly direction?: 'asc' | 'desc';
}

export async function cursorList<T>(
  em: EntityManager,
  query: CursorQuery,
  page: { readonly cursor?: string; readonly limit: number },
  map: (row: Record<string, unknown>) => T,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const column = `"${query.orderBy ?? 'id'}"`;
  const direction = query.direction ?? 'asc';
  const where = [...(query.where ?? [])];
  const params: unknown[] = [...(query.params ?? [])];
  const filters = [
    ...Object.entries(query.equals ?? {}).map(([name, value]) => [`"${name}" = ?`, value] as const),
    ...Object.entries(query.conditions ?? {}),
  ];
  for (const [condition, value] of filters) {
    if (value === undefined) continue;
    where.push(condition);
    params.push(value);
  }
  if (page.cursor) {
    // A cursor is an item's id: anything else names no page (422, not a failed cast).
    if (!UUID.test(page.cursor)) throw OperationsError.invalid('cursor', 'must be the nextCursor of a previous page');
    const compare = direction === 'asc' ? '>' : '<';
    where.push(`(${column}, "id") ${compare} (select ${column}, "id" from ${query.table} where "id" = ?::uuid)`);
    params.push(page.cursor);
  }
  // raw SQL: keyset page over a table the caller names (entities page through entityCursorList)
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select * from ${query.table} ${where.length ? `where ${where.join(' and ')}` : ''}
     order by ${column} ${direction}, "id" ${direction} limit ?`,
    [...params, page.limit + 1],
  );
  const items = rows.slice(0, page.limit);
  return { items: items.map(map), nextCursor: rows.length > page.limit ? String(items.at(-1)!.id) : null };
}

/** The same cursor list over an entity: filters as an entity query, `orderBy` a property (then `id`). */
export interface EntityCursorQuery<E extends { id: string }> {
  readonly entity: EntityName<E>;
  readonly where?: FilterQuery<E>;
  readonly orderBy?: keyof E & string;
  readonly direction?: 'asc' | 'desc';
}

export async function entityCursorList<E extends { id: string }, T>(
  em: EntityManager,
  query: EntityCursorQuery<E>,
  page: { readonly cursor?: string; readonly limit: number },
  map: (entity: E) => T,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const property = query.orderBy ?? 'id';
  const direction = query.direction ?? 'asc';
  const compare = direction === 'asc' ? '$gt' : '$lt';
  const where: FilterQuery<E>[] = query.where ? [query.where] : [];
  if (page.cursor) {
    if (!UUID.test(page.cursor)) throw OperationsError.invalid('cursor', 'must be the nextCursor of a previous page');
    const after = await em.findOne(query.entity, { id: page.cursor } as FilterQuery<E>);
    // A cursor naming no visible row is past the end (as the keyset comparison with no row finds nothing).
    if (!after) return { items: [], nextCursor: null };
    const value = after[property as keyof E];
    where.push({
      $or: [{ [property]: { [compare]: value } }, { [property]: value, id: { [compare]: after.id } }],
    } as FilterQuery<E>);
  }
  const rows = await em.find(query.entity, where.length ? ({ $and: where } as FilterQuery<E>) : {}, {
    orderBy: { [property]: direction, id: direction } as never,
    limit: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  return { items: items.map(map), nextCursor: rows.length > page.limit ? items.at(-1)!.id : null };
}
