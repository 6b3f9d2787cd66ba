import type { EntityManager } from '@mikro-orm/postgresql';
import { mergeDirectory, type TermDirectory } from './directory.js';
import { nativeQuery } from '../../shared/native-query.js';
import { DIR_STEP } from './postings.js';

/** Postings kept decoded in memory at most, over all terms (about 14 bytes each). */
const MAX_CACHED_POSTINGS = 4_000_000;
/** Terms whose rows (directories) are kept. */
const MAX_TERMS = 20_000;

/** One row of `library.posting`: its directory and length. */
export interface SegmentRow {
  readonly segment: number;
  readonly band: number;
  readonly dir: Int32Array;
  readonly count: number;
}

/** Decoded postings of one row, positions [0, upto). */
interface Slice {
  refs: Int32Array;
  pages: Int32Array;
  dls: Int32Array;
  tfs: Uint16Array;
  upto: number;
}

/** Postings of one row, positions [lo, hi), to be read from PostgreSQL or from the cache. */
export interface SliceRequest {
  readonly term: string;
  readonly row: SegmentRow;
  readonly lo: number;
  readonly hi: number;
}

export interface DecodedSlice {
  readonly refs: Int32Array;
  readonly pages: Int32Array;
  readonly dls: Int32Array;
  readonly tfs: Uint16Array;
}

const ROWS_SQL = `
select p.segment_id, p.term, p.band, array_send(p.dir) as dir, octet_length(p.tfs) as count
from library.posting p
where p.term = any($1::text[]) and p.segment_id = any($2::bigint[])`;

const SLICES_SQL = `
select q.i,
       substring(p.refs from q.lo * 4 + 1 for (q.hi - q.lo) * 4) as refs,
       substring(p.pages from q.lo * 4 + 1 for (q.hi - q.lo) * 4) as pages,
       substring(p.dls from q.lo * 4 + 1 for (q.hi - q.lo) * 4) as dls,
       substring(p.tfs from q.lo + 1 for q.hi - q.lo) as tfs
from unnest($1::bigint[], $2::text[], $3::int[], $4::int[], $5::int[]) with ordinality q(segment_id, term, band, lo, hi, i)
join library.posting p on p.term = q.term and p.band = q.band and p.segment_id = q.segment_id`;

/** The int32 elements of a one-dimensional `int4[]` in PostgreSQL's binary array format. */
function arrayElements(binary: Buffer): Int32Array {
  if (binary.readInt32BE(0) === 0) return new Int32Array(0);
  const count = binary.readInt32BE(12);
  const values = new Int32Array(count);
  for (let i = 0; i < count; i++) values[i] = binary.readInt32BE(24 + i * 8);
  return values;
}

function int32s(buffer: Buffer, into: Int32Array, at: number): void {
  for (let i = 0; i < buffer.length >> 2; i++) into[at + i] = buffer.readInt32BE(i * 4);
}

/**
 * What the engine knows of the posting rows, kept between queries: a segment never changes once
 * written (only its dead books do, and those are applied per query), so its rows' directories and
 * the decoded prefixes of the rows read so far stay true until the segment goes. Least recently
 * used terms and slices are forgotten first.
 */
export class PostingStore {
  private readonly rows = new Map<string, Map<number, SegmentRow[]>>();
  private readonly slices = new Map<string, Slice>();
  private cached = 0;
  private readonly merged = new Map<string, { signature: string; directory: TermDirectory }>();
  private readonly books = new Map<number, readonly string[]>();

  /** The books of a segment, in the order its postings refer to them (after `prepare`). */
  booksOf(segment: number): readonly string[] {
    return this.books.get(segment) ?? [];
  }

  /** Loads what is not yet known of the segments (their books) and of the terms in them (their directories). */
  async prepare(em: EntityManager, terms: readonly string[], segments: readonly number[]): Promise<void> {
    const unknown = segments.filter((segment) => !this.books.has(segment));
    if (unknown.length > 0) {
      // raw SQL: search engine, posting lists read by term and band.
      const rows = await nativeQuery<{ id: string; books: string[] }>(
        em,
        'select id, books from library.posting_segment where id = any($1::bigint[])',
        [unknown],
      );
      for (const row of rows) this.books.set(Number(row.id), row.books);
    }
    const missing = terms.filter((term) => segments.some((segment) => !this.rows.get(term)?.has(segment)));
    if (missing.length === 0) return;
    const wantedSegments = segments.filter((segment) => missing.some((term) => !this.rows.get(term)?.has(segment)));
    // raw SQL: search engine, posting lists read by term and band.
    const found = await nativeQuery<{ segment_id: string; term: string; band: number; dir: Buffer; count: number }>(em, ROWS_SQL, [
      missing,
      wantedSegments,
    ]);
    for (const term of missing) {
      const known = this.rows.get(term) ?? new Map<number, SegmentRow[]>();
      for (const segment of wantedSegments) if (!known.has(segment)) known.set(segment, []);
      this.rows.delete(term);
      this.rows.set(term, known);
    }
    for (const row of found) {
      const segment = Number(row.segment_id);
      this.rows
        .get(row.term)!
        .get(segment)!
        .push({ segment, band: row.band, dir: arrayElements(row.dir), count: Number(row.count) });
    }
    while (this.rows.size > MAX_TERMS) this.rows.delete(this.rows.keys().next().value!);
  }

  /** The rows of a term in the given segments (after `prepare`). */
  rowsOf(term: string, segments: readonly number[]): SegmentRow[] {
    const known = this.rows.get(term);
    return segments.flatMap((segment) => known?.get(segment) ?? []);
  }

  /** A term's rows merged per band: how many postings each threshold reads. */
  directory(term: string, segments: readonly number[]): TermDirectory {
    const signature = segments.join(',');
    const known = this.merged.get(term);
    if (known?.signature === signature) return known.directory;
    const directory = mergeDirectory(this.rowsOf(term, segments));
    this.merged.delete(term);
    this.merged.set(term, { signature, directory });
    while (this.merged.size > MAX_TERMS) this.merged.delete(this.merged.keys().next().value!);
    return directory;
  }

  /** Positions [lo, hi) of a row holding the postings with length in (fromDl, toDl]. */
  static positions(row: SegmentRow, fromDl: number, toDl: number): { lo: number; hi: number } {
    const below = (dl: number) => {
      let lo = 0;
      let hi = row.dir.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (row.dir[mid]! <= dl) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return { lo: Math.max(below(fromDl) - 1, 0) * DIR_STEP, hi: Math.min(below(toDl) * DIR_STEP, row.count) };
  }

  /** The postings asked for, from memory where it holds them, the rest read in one statement. */
  async read(em: EntityManager, requests: readonly SliceRequest[]): Promise<DecodedSlice[]> {
    const key = (request: SliceRequest) => `${request.row.segment}\u0000${request.term}\u0000${request.row.band}`;
    for (const request of requests) this.touch(key(request));
    const fetch = requests.filter((request) => (this.slices.get(key(request))?.upto ?? 0) < request.hi);
    if (fetch.length > 0) await this.fetch(em, fetch, key);
    const decoded = requests.map((request) => {
      const slice = this.slices.get(key(request))!;
      return {
        refs: slice.refs.subarray(request.lo, request.hi),
        pages: slice.pages.subarray(request.lo, request.hi),
        dls: slice.dls.subarray(request.lo, request.hi),
        tfs: slice.tfs.subarray(request.lo, request.hi),
      };
    });
    for (const [name, slice] of this.slices) {
      if (this.cached <= MAX_CACHED_POSTINGS) break;
      this.slices.delete(name);
      this.cached -= slice.upto;
    }
    return decoded;
  }

  private touch(name: string): Slice | undefined {
    const slice = this.slices.get(name);
    if (slice) {
      this.slices.delete(name);
      this.slices.set(name, slice);
    }
    return slice;
  }

  /** Reads the missing tail of each requested prefix and appends it to the cached slice. */
  private async fetch(em: EntityManager, requests: readonly SliceRequest[], key: (request: SliceRequest) => string): Promise<void> {
    const from = requests.map((request) => this.slices.get(key(request))?.upto ?? 0);
    // raw SQL: search engine, posting lists read by term and band.
    const rows = await nativeQuery<{ i: string; refs: Buffer; pages: Buffer; dls: Buffer; tfs: Buffer }>(em, SLICES_SQL, [
      requests.map((request) => request.row.segment),
      requests.map((request) => request.term),
      requests.map((request) => request.row.band),
      from,
      requests.map((request) => request.hi),
    ]);
    for (const row of rows) {
      const index = Number(row.i) - 1;
      const request = requests[index]!;
      const name = key(request);
      const slice = this.grown(this.slices.get(name), request.hi, request.row.count);
      const at = from[index]!;
      int32s(row.refs, slice.refs, at);
      int32s(row.pages, slice.pages, at);
      int32s(row.dls, slice.dls, at);
      for (let i = 0; i < row.tfs.length; i++) slice.tfs[at + i] = row.tfs[i]! + 1;
      this.cached += request.hi - slice.upto;
      slice.upto = request.hi;
      this.slices.set(name, slice);
    }
  }

  /** A slice with room for `needed` postings: doubled as it grows, never past the row's length. */
  private grown(slice: Slice | undefined, needed: number, count: number): Slice {
    if (slice && slice.refs.length >= needed) return slice;
    const size = Math.min(count, Math.max(needed, 2 * (slice?.refs.length ?? 0), 64));
    const widen = <T extends Int32Array | Uint16Array>(old: T | undefined, make: (n: number) => T): T => {
      const next = make(size);
      if (old) next.set(old);
      return next;
    };
    return {
      refs: widen(slice?.refs, (n) => new Int32Array(n)),
      pages: widen(slice?.pages, (n) => new Int32Array(n)),
      dls: widen(slice?.dls, (n) => new Int32Array(n)),
      tfs: widen(slice?.tfs, (n) => new Uint16Array(n)),
      upto: slice?.upto ?? 0,
    };
  }
}
