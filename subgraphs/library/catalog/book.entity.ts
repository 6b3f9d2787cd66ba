import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A book of the library. `authors` keeps the names in header order; `titleKey`/`authorsKey` are the
 * normalized forms the `book`, `author` and `q` filters match against.
 */
export const BookEntity = defineEntity({
  name: 'Book',
  tableName: 'book',
  properties: {
    id: p.text().primary(),
    title: p.text(),
    authors: p.array().columnType('text[]'),
    category: p.text(),
    sourceFormat: p.text(),
    sourceUri: p.text().nullable(),
    sourceMeta: p.json<Record<string, string>>(),
    volumes: p.integer().nullable(),
    partCount: p.integer(),
    pageCount: p.integer(),
    termTotal: p.bigint('number'),
    titleKey: p.text().lazy(),
    authorsKey: p.text().lazy(),
    importedAt: p.datetime().columnType('timestamptz'),
  },
});

export type Book = InferEntity<typeof BookEntity>;
