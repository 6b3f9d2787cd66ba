/**
 * Builds an import's posting segment in this process as its pages stream by, instead of deriving it
 * from the stored pages afterwards: the same rows `postings.ts` describes, sorted and packed here
 * and written in batches, and each book's document frequencies (`term_stat`) on the way.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { nativeQuery, valueRows } from '../../shared/native-query.js';
import { BAND_STARTS, DIR_STEP, mergeSmallSegments, registerSegment } from './postings.js';

/** Parameter casts of a posting row, column by column. */
const POSTING_COLUMNS = ['::bigint', '', '::smallint', '::int', '::int[]', '::bytea', '::bytea', '::bytea', '::bytea'];

/** Rows per insert statement. */
const ROWS_PER_STATEMENT = 400;

const bandOf = (tf: number) => {
  let band = 0;
  while (band + 1 < BAND_STARTS.length && BAND_STARTS[band + 1]! <= tf) band += 1;
  return band;
};

/** A typed array twice as long, holding the same values first. */
function doubled<T extends Int32Array | Uint8Array>(from: T): T {
  const to = new (from.constructor as new (length: number) => T)(from.length * 2);
  to.set(from);
  return to;
}

/** Growable parallel arrays of the postings met so far, and of their pages. */
class Postings {
  size = 0;
  terms = new Int32Array(1 << 16);
  /** Index of the posting's page in the page arrays. */
  pageOf = new Int32Array(1 << 16);
  /** tf - 1 (a term frequency is at most 256). */
  tfs = new Uint8Array(1 << 16);
  bands = new Uint8Array(1 << 16);
  pageCount = 0;
  pages = new Int32Array(1 << 12);
  dls = new Int32Array(1 << 12);
  refs = new Int32Array(1 << 12);

  addPage(ref: number, page: number, dl: number): number {
    if (this.pageCount === this.pages.length)
      [this.pages, this.dls, this.refs] = [doubled(this.pages), doubled(this.dls), doubled(this.refs)];
    this.pages[this.pageCount] = page;
    this.dls[this.pageCount] = dl;
    this.refs[this.pageCount] = ref;
    return this.pageCount++;
  }

  push(term: number, pageIndex: number, tf: number): void {
    if (this.size === this.terms.length) {
      [this.terms, this.pageOf] = [doubled(this.terms), doubled(this.pageOf)];
      [this.tfs, this.bands] = [doubled(this.tfs), doubled(this.bands)];
    }
    const i = this.size++;
    this.terms[i] = term;
    this.pageOf[i] = pageIndex;
    this.tfs[i] = tf - 1;
    this.bands[i] = bandOf(tf);
  }

  dl(i: number): number {
    return this.dls[this.pageOf[i]!]!;
  }
}

const SLOT = 2 ** 21;
const LENGTH = 2 ** 26;

/** Sorts one term's postings by band, then length, then the order they came in. */
function sortGroup(group: Int32Array, postings: Postings): void {
  if (group.length >= SLOT || group.some((i) => postings.dl(i) >= LENGTH)) {
    const copy = Array.from(group).sort((a, b) => postings.bands[a]! - postings.bands[b]! || postings.dl(a) - postings.dl(b) || a - b);
    group.set(copy);
    return;
  }
  // band (5 bits) · length (26 bits) · slot (21 bits): 52 bits, exact in a double.
  const keys = new Float64Array(group.length);
  for (let j = 0; j < group.length; j++) {
    const i = group[j]!;
    keys[j] = (postings.bands[i]! * LENGTH + postings.dl(i)) * SLOT + j;
  }
  keys.sort();
  const sorted = Int32Array.from(keys, (key) => group[key % SLOT]!);
  group.set(sorted);
}

/** One packed row of `library.posting`. */
interface Row {
  readonly term: string;
  readonly band: number;
  readonly minDl: number;
  readonly dir: number[];
  readonly refs: Buffer;
  readonly pages: Buffer;
  readonly dls: Buffer;
  readonly tfs: Buffer;
}

export class SegmentBuilder {
  private readonly terms: string[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly books: string[] = [];
  /** Where each book's postings begin: a book's pages come together. */
  private readonly firsts: number[] = [];
  private readonly postings = new Postings();

  /** Starts a book; a book met again in the same import replaces its earlier pages. */
  book(bookId: string): number {
    const earlier = this.books.indexOf(bookId);
    if (earlier >= 0) this.books[earlier] = '';
    this.firsts.push(this.postings.size);
    return this.books.push(bookId) - 1;
  }

  /** The pages of a book (its latest, while it is being written) holding each of its terms. */
  documentFrequencies(ref: number): Map<string, number> {
    const counts = new Map<number, number>();
    const { terms } = this.postings;
    for (let i = this.firsts[ref]!; i < (this.firsts[ref + 1] ?? this.postings.size); i++)
      counts.set(terms[i]!, (counts.get(terms[i]!) ?? 0) + 1);
    return new Map([...counts].map(([term, count]) => [this.terms[term]!, count]));
  }

  /** Records a page's distinct terms (light stems and roots), the frequency of each, and its length. */
  page(ref: number, page: number, terms: readonly string[], tfs: ArrayLike<number>, length: number): void {
    const pageIndex = this.postings.addPage(ref, page, length);
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      let id = this.termIds.get(term);
      if (id === undefined) this.termIds.set(term, (id = this.terms.push(term) - 1));
      this.postings.push(id, pageIndex, Math.min(tfs[i]!, 256));
    }
  }

  /**
   * The postings' positions, grouped by term, then band, shortest page first (the order pages came
   * in breaking ties): counted into term groups, each group sorted on one number packing band, length
   * and position in the group, which a typed array sorts without a comparator.
   */
  private order(): Int32Array {
    const { postings } = this;
    const keep = (i: number) => this.books[postings.refs[postings.pageOf[i]!]!] !== '';
    // Groups in the terms' own order, so the rows reach the primary key (term first) in its order.
    const rank = new Int32Array(this.terms.length);
    Array.from(this.terms.keys())
      .sort((a, b) => (this.terms[a]! < this.terms[b]! ? -1 : 1))
      .forEach((id, position) => (rank[id] = position));
    const starts = new Int32Array(this.terms.length + 1);
    for (let i = 0; i < postings.size; i++) if (keep(i)) starts[rank[postings.terms[i]!]! + 1]! += 1;
    for (let t = 0; t < this.terms.length; t++) starts[t + 1]! += starts[t]!;
    const order = new Int32Array(starts[this.terms.length]!);
    const at = starts.slice(0, this.terms.length);
    for (let i = 0; i < postings.size; i++) if (keep(i)) order[at[rank[postings.terms[i]!]!]!++] = i;
    for (let t = 0; t < this.terms.length; t++) sortGroup(order.subarray(starts[t]!, starts[t + 1]!), postings);
    return order;
  }

  /** Packs consecutive postings of one term and band into a row. */
  private row(order: Int32Array, from: number, to: number): Row {
    const { postings } = this;
    const count = to - from;
    const [refs, pages, dls] = [Buffer.alloc(count * 4), Buffer.alloc(count * 4), Buffer.alloc(count * 4)];
    const tfs = Buffer.alloc(count);
    const dir: number[] = [];
    for (let j = 0; j < count; j++) {
      const i = order[from + j]!;
      const page = postings.pageOf[i]!;
      refs.writeInt32BE(postings.refs[page]!, j * 4);
      pages.writeInt32BE(postings.pages[page]!, j * 4);
      dls.writeInt32BE(postings.dls[page]!, j * 4);
      tfs[j] = postings.tfs[i]!;
      if (j % DIR_STEP === 0) dir.push(postings.dls[page]!);
    }
    const first = order[from]!;
    return {
      term: this.terms[postings.terms[first]!]!,
      band: postings.bands[first]!,
      minDl: postings.dl(first),
      dir,
      refs,
      pages,
      dls,
      tfs,
    };
  }

  private *rows(): Generator<Row> {
    const order = this.order();
    const { terms, bands } = this.postings;
    const same = (a: number, b: number) => terms[a] === terms[b] && bands[a] === bands[b];
    let from = 0;
    for (let to = 1; to <= order.length; to++) {
      if (to === order.length || !same(order[to]!, order[from]!)) {
        yield this.row(order, from, to);
        from = to;
      }
    }
  }

  /** Writes the segment in the caller's transaction: its books, then its rows in batches. */
  async write(em: EntityManager): Promise<void> {
    const books = this.books.filter((book) => book !== '');
    if (books.length === 0) return;
    // Positions in the stored book list: a book replaced within the import left an empty slot behind.
    const stored = new Map(books.map((book, ref) => [book, ref]));
    const refOf = this.books.map((book) => (book === '' ? -1 : stored.get(book)!));
    const segment = await registerSegment(em, books);
    let batch: Row[] = [];
    // One statement in flight while the next batch is packed, so this process and the database work at once.
    let inFlight: Promise<unknown> | null = null;
    const flush = async () => {
      if (batch.length === 0) return;
      const params = batch.flatMap((row) => [
        segment,
        row.term,
        row.band,
        row.minDl,
        row.dir,
        this.renumber(row.refs, refOf),
        row.pages,
        row.dls,
        row.tfs,
      ]);
      const count = batch.length;
      batch = [];
      if (inFlight) await inFlight;
      // raw SQL: search engine, posting lists written in bulk.
      inFlight = nativeQuery(
        em,
        `insert into library.posting (segment_id, term, band, min_dl, dir, refs, pages, dls, tfs) values ${valueRows(count, POSTING_COLUMNS)}`,
        params,
      );
      inFlight.catch(() => undefined); // awaited before the next statement, or below
    };
    for (const row of this.rows()) {
      batch.push(row);
      if (batch.length >= ROWS_PER_STATEMENT) await flush();
    }
    await flush();
    if (inFlight) await inFlight;
    await mergeSmallSegments(em);
  }

  private renumber(refs: Buffer, refOf: readonly number[]): Buffer {
    for (let j = 0; j < refs.length; j += 4) refs.writeInt32BE(refOf[refs.readInt32BE(j)]!, j);
    return refs;
  }

  /** Pages of a book holding each of its terms, for `library.term_stat`. */
  static async writeTermStats(em: EntityManager, bookId: string, df: ReadonlyMap<string, number>): Promise<void> {
    // In the primary key's order (term, then book): each insert lands next to the one before.
    const terms = [...df.keys()].sort();
    for (let from = 0; from < terms.length; from += 5000) {
      const slice = terms.slice(from, from + 5000);
      // raw SQL: search engine, posting lists written in bulk.
      await nativeQuery(
        em,
        'insert into library.term_stat (term, book_id, df) select t, $1, d from unnest($2::text[], $3::int[]) x(t, d)',
        [bookId, slice, slice.map((term) => df.get(term))],
      );
    }
  }
}
