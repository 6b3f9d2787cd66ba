/**
 * Posting lists for ranked retrieval at scale (docs/adr/0010-exact-top-k-retrieval.md).
 *
 * Postings are written in segments: each import (or reindex) writes one for the books it stored.
 * `library.posting` holds, per term, band of term frequencies and segment, the pages holding the term
 * that often, shortest first: the book (its position in the segment's `books`), page number and
 * length as big-endian int32, the frequency as one byte (tf - 1), in `bytea` columns stored
 * uncompressed so a slice is read without the rest; `dir` keeps the length of every DIR_STEP-th
 * posting, to find a slice by binary search (`width_bucket`). Within a band a shorter page never
 * scores lower than a longer one with the same frequency, so "the pages whose BM25 impact for this
 * term reaches λ" is, band by band, a prefix of each row: the engine reads the best postings of a
 * common term without the rest, and the whole list of a rare one. A book stored again lives on in
 * its old segment as a `dead` position until that segment is merged away.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { MAX_TF } from './bm25.js';
import { textArray } from './index-terms.js';

/** First term frequency of each band; band i holds frequencies in [BAND_STARTS[i], BAND_STARTS[i + 1]). */
export const BAND_STARTS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 16, 20, 25, 32, 40, 50, 64, 80, 100, 128, 160, 200];

/** `dir` keeps the length of postings 0, DIR_STEP, 2·DIR_STEP…: a slice is found to within this many postings. */
export const DIR_STEP = 16;

/** Segments with fewer live pages than this are merged once there are more than SMALL_SEGMENTS of them. */
const SMALL_SEGMENT_PAGES = 2000;
const SMALL_SEGMENTS = 8;

/** The highest term frequency band `band` can hold. */
export function bandTop(band: number): number {
  return (BAND_STARTS[band + 1] ?? MAX_TF + 1) - 1;
}

/**
 * Posting rows of segment `segment` (placeholder `?`) from the pages of its books, `?` (a text
 * array, in segment order): one statement, sorted and packed by PostgreSQL.
 */
export function segmentRowsSql(): string {
  return `
  insert into library.posting (segment_id, term, band, min_dl, dir, refs, pages, dls, tfs)
  select x.segment_id, x.term, x.band, min(x.dl),
         array_agg(x.dl order by x.rank) filter (where x.rank % ${DIR_STEP} = 0),
         string_agg(int4send(x.ref), ''::bytea order by x.rank),
         string_agg(int4send(x.page), ''::bytea order by x.rank),
         string_agg(int4send(x.dl), ''::bytea order by x.rank),
         string_agg(set_byte('\\x00'::bytea, 0, x.tf - 1), ''::bytea order by x.rank)
  from (
    select y.*, row_number() over (partition by y.term, y.band order by y.dl, y.ref, y.page) - 1 as rank
    from (
      select s.id as segment_id, (b.ord - 1)::int as ref, u.lexeme as term, p.page, p.term_count as dl, t.tf,
             width_bucket(t.tf, array[${BAND_STARTS.join(', ')}]) - 1 as band
      from library.posting_segment s
      cross join lateral unnest(s.books) with ordinality b(book_id, ord)
      join library.page p on p.book_id = b.book_id
      cross join lateral unnest(p.terms) u
      cross join lateral (select coalesce(array_length(u.positions, 1), 1) as tf) t
      where s.id = ?
    ) y
  ) x
  group by x.segment_id, x.term, x.band`;
}

/** Marks the given books dead in every segment but `?` (the new one). */
const BURY_SQL = `
update library.posting_segment s
set dead = (select array(select distinct d from unnest(s.dead || array(
  select (b.ord - 1)::int from unnest(s.books) with ordinality b(book_id, ord) where b.book_id = any(?::text[])
)) d order by d))
where s.books && ?::text[] and s.id <> ?::bigint`;

/** A new segment for these books (its rows to follow), the books marked dead in every other segment. */
export async function registerSegment(em: EntityManager, bookIds: readonly string[]): Promise<number> {
  const books = textArray(bookIds);
  // raw SQL: search engine, segments written and merged set-wise (bulk work).
  const [segment] = await em.execute<Array<{ id: string }>>('insert into library.posting_segment (books) values (?::text[]) returning id', [
    books,
  ]);
  const id = Number(segment!.id);
  // raw SQL: search engine, segments written and merged set-wise (bulk work).
  await em.execute(BURY_SQL, [books, books, id]);
  await dropEmptySegments(em);
  return id;
}

/**
 * Writes the postings of `bookIds` (already stored, in the caller's transaction) as a new segment,
 * derived by PostgreSQL from their pages' term vectors; marks them dead in older segments and merges
 * small segments when there are many. Imports build theirs as pages stream by (`segment-builder.ts`).
 */
export async function writeSegment(em: EntityManager, bookIds: readonly string[]): Promise<number | null> {
  if (bookIds.length === 0) return null;
  const id = await registerSegment(em, [...new Set(bookIds)]);
  // raw SQL: search engine, segments written and merged set-wise (bulk work).
  await em.execute(segmentRowsSql(), [id]);
  await mergeSmallSegments(em);
  return id;
}

/** Segments whose every book is dead hold nothing: they go (their postings with them). */
async function dropEmptySegments(em: EntityManager): Promise<void> {
  // raw SQL: search engine, segments written and merged set-wise (bulk work).
  await em.execute('delete from library.posting_segment where cardinality(dead) >= cardinality(books)');
}

/** Live books of segments with few live pages, when there are more than SMALL_SEGMENTS of them, in one new segment. */
export async function mergeSmallSegments(em: EntityManager): Promise<void> {
  // raw SQL: search engine, segments written and merged set-wise (bulk work).
  const small = await em.execute<Array<{ id: string; books: string[] }>>(
    `select s.id, array(select b.book_id from unnest(s.books) with ordinality b(book_id, ord)
                        where not ((b.ord - 1)::int = any(s.dead)) order by b.ord) as books
     from library.posting_segment s
     where (select coalesce(sum(k.page_count), 0) from library.book k
            where k.id = any(s.books)) < ?
     order by s.id`,
    [SMALL_SEGMENT_PAGES],
  );
  if (small.length <= SMALL_SEGMENTS) return;
  const books = small.flatMap((segment) => segment.books);
  // raw SQL: search engine, segments written and merged set-wise (bulk work).
  await em.execute('delete from library.posting_segment where id = any(?::bigint[])', [
    `{${small.map((segment) => segment.id).join(',')}}`,
  ]);
  await writeSegment(em, books);
}

/** Pages per segment when every segment is rewritten. */
const REWRITE_PAGES = 100_000;

/** Replaces every segment by new ones holding all books, about REWRITE_PAGES pages each (`npm run reindex`). */
export async function rewriteSegments(em: EntityManager): Promise<void> {
  // raw SQL: search engine, segments written and merged set-wise (bulk work).
  await em.execute('delete from library.posting_segment');
  // raw SQL: search engine, segments written and merged set-wise (bulk work).
  const books = await em.execute<Array<{ id: string; page_count: number }>>('select id, page_count from library.book order by id');
  let group: string[] = [];
  let pages = 0;
  for (const book of books) {
    group.push(book.id);
    pages += Number(book.page_count);
    if (pages >= REWRITE_PAGES) {
      await writeSegment(em, group);
      group = [];
      pages = 0;
    }
  }
  await writeSegment(em, group);
}
