import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { MikroORM, PostgreSqlDriver, type EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURSOR_MESSAGES, cursorLists, offsetWindow, type Page, type PageRequest } from '../../../subgraphs/shared/cursor-list.js';
import { createTestDatabase } from '../../support/database.js';

/** The shared cursor list below HTTP, on a table of its own: order, ties, the last page, refusals. */

const ItemEntity = defineEntity({
  name: 'PagedItem',
  tableName: 'item',
  properties: {
    id: p.uuid().primary(),
    owner: p.string(),
    name: p.string(),
    at: p.datetime().columnType('timestamptz'),
  },
});
type Item = InferEntity<typeof ItemEntity>;

class Refused extends Error {}
const { cursorList, entityCursorList } = cursorLists((message) => new Refused(message));

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
let em: EntityManager;

const TABLE = '"paging"."item"';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Twelve items of owner `a`: names in three tied groups (`x`, `y`, `z`, four each, ids
 * interleaved so ties sort by id), times 1 µs apart inside one millisecond; one item of owner `b`.
 */
const ROWS = Array.from({ length: 12 }, (_, n) => ({
  id: id(((n * 5) % 12) + 1),
  owner: 'a',
  name: ['x', 'y', 'z'][n % 3]!,
  at: `2026-11-27 10:00:00.000${String(n).padStart(3, '0')}+00`,
}));

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: database.url,
    schema: 'paging',
    entities: [ItemEntity],
    pool: { min: 0, max: 2 },
    debug: false,
  });
  em = orm.em.fork() as EntityManager;
  await em.execute('create schema "paging"');
  await em.execute(`create table ${TABLE} ("id" uuid primary key, "owner" text not null, "name" text not null, "at" timestamptz not null)`);
  for (const row of [...ROWS, { id: id(99), owner: 'b', name: 'x', at: '2026-11-27 10:00:00+00' }]) {
    await em.execute(`insert into ${TABLE} values (?, ?, ?, ?)`, [row.id, row.owner, row.name, row.at]);
  }
});
afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

/** Every page of a list, first to last, by following its cursors. */
async function allPages<T>(read: (page: PageRequest) => Promise<Page<T>>, limit: number): Promise<Array<Page<T>>> {
  const pages: Array<Page<T>> = [];
  let cursor: string | undefined;
  do {
    const page = await read({ cursor, limit });
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 50);
  return pages;
}

const byNameThenId = [...ROWS].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)).map((row) => row.id);
const newestFirst = [...ROWS].reverse().map((row) => row.id);

describe('cursorList (SQL)', () => {
  const list = (query: Partial<Parameters<typeof cursorList>[1]>) => (page: PageRequest) =>
    cursorList(em, { table: TABLE, owner: { owner: 'a' }, ...query }, page, (row) => row.id as string);

  it('pages items with tied sort keys in (key, id) order, each once, across page boundaries inside a tie', async () => {
    const pages = await allPages(list({ orderBy: 'name' }), 3);
    expect(pages.map((page) => page.items.length)).toEqual([3, 3, 3, 3]);
    expect(pages.flatMap((page) => page.items)).toEqual(byNameThenId);
  });

  it('pages newest first by a timestamp whose items lie microseconds apart, skipping none', async () => {
    const pages = await allPages(list({ orderBy: 'at', direction: 'desc' }), 5);
    expect(pages.flatMap((page) => page.items)).toEqual(newestFirst);
  });

  it('gives the last page a null cursor, also when it is exactly full', async () => {
    const [whole] = await allPages(list({ orderBy: 'name' }), 12);
    expect(whole).toEqual({ items: byNameThenId, nextCursor: null });
    const pages = await allPages(list({ orderBy: 'name' }), 4);
    expect(pages.map((page) => page.nextCursor === null)).toEqual([false, false, true]);
  });

  it('keeps paging when a filter other than the owner is applied', async () => {
    const pages = await allPages(list({ orderBy: 'at', direction: 'desc', equals: { name: 'y' } }), 2);
    expect(pages.flatMap((page) => page.items)).toEqual(
      ROWS.filter((row) => row.name === 'y')
        .reverse()
        .map((row) => row.id),
    );
  });

  it.each(['abc', '-1', '0', "' or 1=1 --", '2026-11-27T10:00:00.000000Z', `${id(1)}x`, Buffer.from(id(1)).toString('base64url')])(
    'refuses %s as malformed, before any query',
    async (cursor) => {
      await expect(list({})({ cursor, limit: 2 })).rejects.toThrow(new Refused(CURSOR_MESSAGES.malformed));
    },
  );

  it('refuses an id that names no item, and an item of another owner, as no item of this list', async () => {
    await expect(list({})({ cursor: id(500), limit: 2 })).rejects.toThrow(new Refused(CURSOR_MESSAGES.unknown));
    await expect(list({})({ cursor: id(99), limit: 2 })).rejects.toThrow(new Refused(CURSOR_MESSAGES.unknown));
  });

  it('takes ids of another shape when the list declares it', async () => {
    await expect(list({ id: /^item_[a-z]+$/ })({ cursor: id(1), limit: 2 })).rejects.toThrow(new Refused(CURSOR_MESSAGES.malformed));
  });
});

describe('entityCursorList (entities)', () => {
  const list = (query: { orderBy?: 'name' | 'at'; direction?: 'asc' | 'desc'; where?: object }) => (page: PageRequest) =>
    entityCursorList(em.fork() as EntityManager, { entity: ItemEntity, owner: { owner: 'a' }, ...query }, page, (item: Item) => item.id);

  it('pages tied sort keys in (key, id) order and a microsecond timestamp newest first, each item once', async () => {
    expect((await allPages(list({ orderBy: 'name' }), 5)).flatMap((page) => page.items)).toEqual(byNameThenId);
    expect((await allPages(list({ orderBy: 'at', direction: 'desc' }), 5)).flatMap((page) => page.items)).toEqual(newestFirst);
  });

  it('gives the last page a null cursor', async () => {
    const pages = await allPages(list({ orderBy: 'name' }), 6);
    expect(pages.map((page) => page.nextCursor === null)).toEqual([false, true]);
  });

  it('refuses a malformed cursor, one naming no item and one of another owner', async () => {
    await expect(list({})({ cursor: 'abc', limit: 2 })).rejects.toThrow(new Refused(CURSOR_MESSAGES.malformed));
    await expect(list({})({ cursor: id(500), limit: 2 })).rejects.toThrow(new Refused(CURSOR_MESSAGES.unknown));
    await expect(list({})({ cursor: id(99), limit: 2 })).rejects.toThrow(new Refused(CURSOR_MESSAGES.unknown));
  });
});

describe('offsetWindow', () => {
  const bounds = { default: 20, cap: 100 };
  it.each([
    [undefined, undefined, { limit: 20, offset: 0 }],
    [0, -5, { limit: 1, offset: 0 }],
    [500, 40, { limit: 100, offset: 40 }],
    [Number.NaN, 1.5, { limit: 20, offset: 0 }],
  ])('caps limit %s and offset %s to %j', (limit, offset, window) => {
    expect(offsetWindow(limit, offset, bounds)).toEqual(window);
  });
});
