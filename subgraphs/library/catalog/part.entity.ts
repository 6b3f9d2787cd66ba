import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A heading of a book: `index` orders parts within the book, `depth` nests them (1 = top level). */
export const PartEntity = defineEntity({
  name: 'Part',
  tableName: 'part',
  properties: {
    /** `<book_id>:<index>`. */
    id: p.text().primary(),
    bookId: p.text(),
    index: p.integer(),
    depth: p.integer(),
    title: p.text(),
    parentIndex: p.integer().nullable(),
    /** Number of the page on which the heading stands. */
    page: p.integer().nullable(),
  },
});

export type Part = InferEntity<typeof PartEntity>;
