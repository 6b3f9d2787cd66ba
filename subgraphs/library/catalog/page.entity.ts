import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A page of a book. `page` numbers pages 1…n through the whole book, across volumes, so the id
 * `<book_id>-<page>` is unique; the printed volume and page number stay in `volume`/`volumePage`/`label`.
 * `terms` (analysed terms as a tsvector) and `termCount` exist for search only and are never loaded.
 */
export const PageEntity = defineEntity({
  name: 'Page',
  tableName: 'page',
  properties: {
    id: p.text().primary(),
    bookId: p.text(),
    page: p.integer(),
    volume: p.text().nullable(),
    volumePage: p.integer().nullable(),
    label: p.text().nullable(),
    partIndex: p.integer().nullable(),
    part: p.text(),
    text: p.text(),
    markup: p.text().nullable().lazy(),
    chars: p.integer(),
    terms: p.text().columnType('tsvector').lazy(),
    termCount: p.integer(),
  },
});

export type Page = InferEntity<typeof PageEntity>;
