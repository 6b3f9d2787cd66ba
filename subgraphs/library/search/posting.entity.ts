import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/*
 * The PostgreSQL search engine's index (search/postings.ts, segment-builder.ts). It is written in bulk
 * and read by the search engine in raw SQL (binary posting lists, array operators); the entities are
 * the one description of its columns.
 */

/** A batch of books indexed together; `dead` lists the page numbers removed since (tombstones). */
export const PostingSegmentEntity = defineEntity({
  name: 'PostingSegment',
  tableName: 'posting_segment',
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    books: p.array().columnType('text[]'),
    dead: p.array<number>(Number).columnType('integer[]'),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});

/**
 * The posting list of one term in one segment and length band: `refs`, `pages`, `dls` and `tfs` are
 * packed arrays (page references, page numbers, document lengths, term frequencies), `dir` a skip
 * directory into them.
 */
export const PostingEntity = defineEntity({
  name: 'Posting',
  tableName: 'posting',
  properties: {
    term: p.text().primary(),
    band: p.smallint().primary(),
    segmentId: p.bigint('string').primary(),
    minDl: p.integer(),
    dir: p.array<number>(Number).columnType('integer[]'),
    refs: p.blob().columnType('bytea').lazy(),
    pages: p.blob().columnType('bytea').lazy(),
    dls: p.blob().columnType('bytea').lazy(),
    tfs: p.blob().columnType('bytea').lazy(),
  },
});

/** In how many pages of a book a term occurs (document frequency), for BM25 statistics. */
export const TermStatEntity = defineEntity({
  name: 'TermStat',
  tableName: 'term_stat',
  properties: {
    term: p.text().primary(),
    bookId: p.text().primary(),
    df: p.integer(),
  },
});

export type PostingSegment = InferEntity<typeof PostingSegmentEntity>;
export type Posting = InferEntity<typeof PostingEntity>;
export type TermStat = InferEntity<typeof TermStatEntity>;
