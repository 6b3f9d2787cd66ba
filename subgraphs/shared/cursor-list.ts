import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The one list mechanism of every subgraph (docs/adr/0044-one-list-mechanism.md).
 *
 * A cursor list answers `{items, nextCursor}`: rows in the order of one column, `id`
 * breaking ties, read with a keyset condition so a page costs the same however deep it
 * is. The cursor is the `id` of the previous page's last item. Its sort key is read from
 * the database, never from the cursor, so a timestamp keeps its microseconds and no
 * cursor text reaches a cast. A cursor that is not an id of the list's shape, or names no
 * item the list could have served (another list's, another tenant's or workspace's, one
 * since deleted), is refused with the service's own 422 — never a failed cast (500),
 * never page 1 again, never an empty page that looks like the end.
 *
 * Offset windows (`limit`, `offset`) that a route documents go through `offsetWindow`.
 */

export interface PageRequest {
  readonly cursor?: string | null;
  readonly limit: number;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** What a refused cursor says, worded by the service's error registry (its 422 naming `cursor`). */
export type CursorRefusal = (message: string) => Error;

/** The two ways a cursor is refused; the service's registry turns each into its 422. */
export const CURSOR_MESSAGES = {
  malformed: 'must be the nextCursor of a previous page',
  unknown: 'names no item of this list; start again from the first page',
} as const;

/** An item id as most tables write it: a UUID. */
export const UUID_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A cursor list over one table, read with SQL (the table's rows as `t`). */
export interface CursorQuery {
  /** Schema-qualified, quoted table, or a derived table in parentheses, without an alias (the list names it `t`). */
  readonly table: string;
  /** The select list (default `t.*`), e.g. to add a computed column. */
  readonly select?: string;
  /** SQL conditions joined with `and`; `?` placeholders bound from `params`. */
  readonly where?: readonly string[];
  readonly params?: readonly unknown[];
  /** Equality filters, column → value; an undefined value filters nothing. */
  readonly equals?: Readonly<Record<string, unknown>>;
  /** Other filters, an SQL condition with one `?` → its value; an undefined value filters nothing. */
  readonly conditions?: Readonly<Record<string, unknown>>;
  /**
   * Whose list it is, when the database's row security does not say it already (e.g. a
   * workspace): column → value. A cursor must name a row that meets these; the other
   * filters may change between pages without refusing the cursor.
   */
  readonly owner?: Readonly<Record<string, unknown>>;
  /** Column to order by, `id` breaking ties (default `id`). */
  readonly orderBy?: string;
  readonly direction?: 'asc' | 'desc';
  /** The shape of the table's ids (default a UUID). */
  readonly id?: RegExp;
}

/** The same list over an entity: filters as an entity query, `orderBy` a property (then `id`). */
export interface EntityCursorQuery<E extends { id: string }> {
  readonly entity: EntityName<E>;
  readonly where?: FilterQuery<E>;
  /** Whose list it is, when row security does not say it: a cursor must name an entity that meets it. */
  readonly owner?: FilterQuery<E>;
  readonly orderBy?: keyof E & string;
  readonly direction?: 'asc' | 'desc';
  readonly id?: RegExp;
}

/** The cursor lists of one service, whose refusals its error registry words. */
export interface CursorLists {
  cursorList<T>(em: EntityManager, query: CursorQuery, page: PageRequest, map: (row: Record<string, unknown>) => T): Promise<Page<T>>;
  entityCursorList<E extends { id: string }, T>(
    em: EntityManager,
    query: EntityCursorQuery<E>,
    page: PageRequest,
    map: (entity: E) => T,
  ): Promise<Page<T>>;
}

const quoted = (name: string) => `"${name}"`;

/** The list's page of at most `limit` rows from `limit + 1` read, and the cursor after it. */
function pageOf<R extends { id: unknown }, T>(rows: readonly R[], limit: number, map: (row: R) => T): Page<T> {
  const items = rows.slice(0, limit);
  return { items: items.map(map), nextCursor: rows.length > limit ? String(items.at(-1)!.id) : null };
}

/** Builds the cursor lists of a service; `refuse` is its registry's 422 naming `cursor`. */
export function cursorLists(refuse: CursorRefusal): CursorLists {
  /** The cursor when it has the shape of an id of the list, else the 422. */
  const checked = (cursor: string | null | undefined, shape: RegExp | undefined): string | null => {
    if (cursor === undefined || cursor === null) return null;
    if (!(shape ?? UUID_ID).test(cursor)) throw refuse(CURSOR_MESSAGES.malformed);
    return cursor;
  };

  return {
    async cursorList(em, query, page, map) {
      const cursor = checked(page.cursor, query.id);
      const column = quoted(query.orderBy ?? 'id');
      const direction = query.direction ?? 'asc';
      const where = [...(query.where ?? [])];
      const params: unknown[] = [...(query.params ?? [])];
      const owner = Object.entries(query.owner ?? {}).filter(([, value]) => value !== undefined);
      const filters = [
        ...owner.map(([name, value]) => [`t.${quoted(name)} = ?`, value] as const),
        ...Object.entries(query.equals ?? {}).map(([name, value]) => [`t.${quoted(name)} = ?`, value] as const),
        ...Object.entries(query.conditions ?? {}),
      ];
      for (const [condition, value] of filters) {
        if (value === undefined) continue;
        where.push(condition);
        params.push(value);
      }
      if (cursor !== null) {
        // raw SQL: whether the cursor names a row of this list, on the table the caller names
        const named = await em.execute<Array<{ found: number }>>(
          `select 1 as "found" from ${query.table} t where t."id" = ?${owner.map(([name]) => ` and t.${quoted(name)} = ?`).join('')}`,
          [cursor, ...owner.map(([, value]) => value)],
        );
        if (named.length === 0) throw refuse(CURSOR_MESSAGES.unknown);
        const compare = direction === 'asc' ? '>' : '<';
        where.push(`(t.${column}, t."id") ${compare} (select c.${column}, c."id" from ${query.table} c where c."id" = ?)`);
        params.push(cursor);
      }
      // raw SQL: keyset page over a table the caller names (entities page through entityCursorList)
      const rows = await em.execute<Array<Record<string, unknown> & { id: unknown }>>(
        `select ${query.select ?? 't.*'} from ${query.table} t ${where.length ? `where ${where.join(' and ')}` : ''}
         order by t.${column} ${direction}, t."id" ${direction} limit ?`,
        [...params, page.limit + 1],
      );
      return pageOf(rows, page.limit, map);
    },

    async entityCursorList<E extends { id: string }, T>(
      em: EntityManager,
      query: EntityCursorQuery<E>,
      page: PageRequest,
      map: (entity: E) => T,
    ): Promise<Page<T>> {
      const cursor = checked(page.cursor, query.id);
      const property = query.orderBy ?? 'id';
      const direction = query.direction ?? 'asc';
      const meta = em.getMetadata().get(query.entity);
      const schema = meta.schema ?? em.config.get('schema');
      const table = `${schema ? `${quoted(schema)}.` : ''}${quoted(meta.tableName)}`;
      const column = quoted(meta.properties[property as keyof typeof meta.properties]!.fieldNames[0]!);
      const qb = em.createQueryBuilder(query.entity, 'e').select('*');
      const where: FilterQuery<E>[] = [query.where, query.owner].filter((filter) => filter !== undefined);
      if (where.length) qb.where({ $and: where } as never);
      if (cursor !== null) {
        const named = await em.count(query.entity, { $and: [{ id: cursor }, ...(query.owner ? [query.owner] : [])] } as FilterQuery<E>);
        if (named === 0) throw refuse(CURSOR_MESSAGES.unknown);
        const compare = direction === 'asc' ? '>' : '<';
        // raw SQL: the keyset condition reads the cursor row's sort key in the database (microseconds kept)
        qb.andWhere(`(e.${column}, e."id") ${compare} (select c.${column}, c."id" from ${table} c where c."id" = ?)`, [cursor]);
      }
      qb.orderBy({ [property]: direction, id: direction } as never).limit(page.limit + 1);
      const rows = (await qb.getResultList()) as E[];
      return pageOf(rows, page.limit, map);
    },
  };
}

/** Bounds of a documented offset window: anything not a sane number takes the default. */
export interface WindowBounds {
  readonly default: number;
  readonly cap: number;
}

export interface Window {
  readonly limit: number;
  readonly offset: number;
}

/**
 * The offset window a route documents (`limit`, `offset`), capped to its bounds: a limit
 * outside 1..cap is brought inside, anything not an integer takes the default, an offset
 * that is not a positive integer is 0. Lists read it with `limit ? offset ?` in their order.
 */
export function offsetWindow(limit: number | null | undefined, offset: number | null | undefined, bounds: WindowBounds): Window {
  const wanted = Number.isInteger(limit) ? (limit as number) : bounds.default;
  return {
    limit: Math.min(Math.max(wanted, 1), bounds.cap),
    offset: Number.isInteger(offset) && (offset as number) > 0 ? (offset as number) : 0,
  };
}
