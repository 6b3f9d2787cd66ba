/**
 * The pages a top-k search has met so far, with what it knows of each: the frequencies read, and
 * for every other term only that its impact stays below that term's threshold. Tens of thousands
 * of pages may be met per query, so they live in typed arrays behind an open-addressing table.
 */
import { impact, type Bm25Parameters, type CorpusStats } from './bm25.js';

/** A query term with everything its contribution needs. */
export interface ScoredTerm {
  readonly term: string;
  /** Query weight × IDF: the term's BM25 contribution is `weight × impact`. */
  readonly weight: number;
  /** Pages holding the term in the searched books: the cost of reading its whole list. */
  readonly df: number;
}

/** Keeps the `k` largest numbers seen; the k-th of them, or 0 when fewer came. */
export function kthLargest(values: Iterable<number>, k: number): number {
  const best: number[] = [];
  for (const value of values) {
    if (best.length === k && value <= best[k - 1]!) continue;
    let at = best.length < k ? best.length : k - 1;
    while (at > 0 && best[at - 1]! < value) {
      best[at] = best[at - 1]!;
      at -= 1;
    }
    best[at] = value;
  }
  return best.length < k ? 0 : best[k - 1]!;
}

const EMPTY = -1;

export class Candidates {
  /** Per term: every posting whose impact reaches this has been read ((k1 + 1) = none yet, 0 = all). */
  readonly thresholds: number[];
  readonly bookIds: string[] = [];
  private readonly bookIndex = new Map<string, number>();
  size = 0;
  /** Pages met but not kept, their best score being out of reach. */
  skipped = 0;
  private books = new Int32Array(1024);
  private pages = new Int32Array(1024);
  private dls = new Int32Array(1024);
  /** `size × terms` frequencies: tf, 0 when known absent, -1 when not read. */
  private tfs: Int16Array;
  /** Per candidate, the contributions of the terms read, summed as they came (a bound; `exact` sums in query order). */
  lowers = new Float64Array(1024);
  /** Per term, weight × threshold: the most a term not read adds (see `refreshBounds`). */
  private readonly termBounds: Float64Array;
  private slots = new Int32Array(2048).fill(EMPTY);

  constructor(
    readonly terms: readonly ScoredTerm[],
    readonly stats: CorpusStats,
    readonly bm25: Bm25Parameters,
  ) {
    this.thresholds = terms.map(() => bm25.k1 + 1);
    this.tfs = new Int16Array(1024 * terms.length).fill(-1);
    this.termBounds = Float64Array.from(terms, (term, t) => term.weight * this.thresholds[t]!);
  }

  /** Takes new thresholds into the bounds of the terms not read. */
  setThresholds(next: readonly number[]): void {
    next.forEach((threshold, t) => {
      this.thresholds[t] = Math.min(this.thresholds[t]!, threshold);
      this.termBounds[t] = this.terms[t]!.weight * this.thresholds[t]!;
    });
  }

  bookOf(index: number): string {
    return this.bookIds[this.books[index]!]!;
  }

  pageOf(index: number): number {
    return this.pages[index]!;
  }

  tf(index: number, term: number): number {
    return this.tfs[index * this.terms.length + term]!;
  }

  setTf(index: number, term: number, tf: number): void {
    const at = index * this.terms.length + term;
    if (tf > 0 && this.tfs[at]! <= 0) this.lowers[index]! += this.terms[term]!.weight * impact(tf, this.dls[index]!, this.stats, this.bm25);
    this.tfs[at] = tf;
  }

  private bookRef(bookId: string): number {
    let ref = this.bookIndex.get(bookId);
    if (ref === undefined) {
      ref = this.bookIds.push(bookId) - 1;
      this.bookIndex.set(bookId, ref);
    }
    return ref;
  }

  private slotOf(book: number, page: number): number {
    const mask = this.slots.length - 1;
    // murmur3's finalizer: every bit of book and page reaches the low bits the mask keeps.
    let hash = Math.imul(book, 0x9e3779b1) + page;
    hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
    hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
    let slot = (hash ^ (hash >>> 16)) & mask;
    for (;;) {
      const index = this.slots[slot]!;
      if (index === EMPTY || (this.books[index] === book && this.pages[index] === page)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** The index of a page met, or -1. */
  find(bookId: string, page: number): number {
    const book = this.bookIndex.get(bookId);
    return book === undefined ? EMPTY : this.slots[this.slotOf(book, page)]!;
  }

  private grow(): void {
    const capacity = this.books.length * 2;
    const widen = (from: Int32Array): Int32Array<ArrayBuffer> => {
      const to = new Int32Array(capacity);
      to.set(from);
      return to;
    };
    this.books = widen(this.books);
    this.pages = widen(this.pages);
    this.dls = widen(this.dls);
    const lowers = new Float64Array(capacity);
    lowers.set(this.lowers);
    this.lowers = lowers;
    const tfs = new Int16Array(capacity * this.terms.length).fill(-1);
    tfs.set(this.tfs);
    this.tfs = tfs;
    this.slots = new Int32Array(capacity * 2).fill(EMPTY);
    for (let index = 0; index < this.size; index++) this.slots[this.slotOf(this.books[index]!, this.pages[index]!)] = index;
  }

  /** Interned positions of a segment's books, by the segment's book table (filled as they are met). */
  private readonly interned = new WeakMap<readonly string[], Int32Array>();

  /**
   * Records that `term` occurs `tfs[i]` times in page `pages[i]` (of length `dls[i]`) of book
   * `books[refs[i]]`; postings whose `keep[refs[i]]` is 0 are skipped. A page met for the first time
   * whose best possible score is below `floor` (a score the k-th page is sure to reach) can never
   * be in the top k and is not kept at all.
   */
  add(
    term: number,
    books: readonly string[],
    keep: Uint8Array | null,
    postings: { refs: ArrayLike<number>; pages: ArrayLike<number>; tfs: ArrayLike<number>; dls: ArrayLike<number> },
    floor = 0,
  ): void {
    let refs = this.interned.get(books);
    if (!refs) this.interned.set(books, (refs = new Int32Array(books.length).fill(EMPTY)));
    const weight = this.terms[term]!.weight;
    const others = this.unseenBound() - this.termBounds[term]!;
    // The hot loop of a search: BM25's impact written out (the same operations as `impact`, so the
    // same numbers), the table probed inline, the arrays held in locals until they grow.
    const { k1, b } = this.bm25;
    const { avgdl } = this.stats;
    const width = this.terms.length;
    const { refs: postingRefs, pages, tfs, dls } = postings;
    let { slots, books: bookOf, pages: pageOf } = this;
    let mask = slots.length - 1;
    for (let i = 0; i < pages.length; i++) {
      const ref = postingRefs[i]!;
      if (keep !== null && keep[ref] === 0) continue;
      let book = refs[ref]!;
      if (book === EMPTY) refs[ref] = book = this.bookRef(books[ref]!);
      const page = pages[i]!;
      let hash = Math.imul(book, 0x9e3779b1) + page;
      hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
      hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
      let slot = (hash ^ (hash >>> 16)) & mask;
      let index: number;
      while ((index = slots[slot]!) !== EMPTY && (bookOf[index] !== book || pageOf[index] !== page)) slot = (slot + 1) & mask;
      const tf = tfs[i]!;
      const dl = dls[i]!;
      const gain = weight * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * dl) / avgdl)));
      if (index === EMPTY) {
        if (floor > 0 && gain + others < floor) {
          this.skipped += 1;
          continue;
        }
        if (this.size === bookOf.length) {
          this.grow();
          ({ slots, books: bookOf, pages: pageOf } = this);
          mask = slots.length - 1;
          slot = this.slotOf(book, page);
        }
        index = this.size++;
        slots[slot] = index;
        bookOf[index] = book;
        pageOf[index] = page;
        this.dls[index] = dl;
      }
      const at = index * width + term;
      if (tf > 0 && this.tfs[at]! <= 0) this.lowers[index]! += gain;
      this.tfs[at] = tf;
    }
  }

  /** The part of a candidate's score from the terms read, summed in query-term order: its score once nothing is missing. */
  exact(index: number): number {
    let lower = 0;
    const base = index * this.terms.length;
    for (let t = 0; t < this.terms.length; t++) {
      const tf = this.tfs[base + t]!;
      if (tf > 0) lower += this.terms[t]!.weight * impact(tf, this.dls[index]!, this.stats, this.bm25);
    }
    return lower;
  }

  /** The most the terms not read may add to a candidate's score. */
  missing(index: number): number {
    let missing = 0;
    const base = index * this.terms.length;
    for (let t = 0; t < this.terms.length; t++) if (this.tfs[base + t]! < 0) missing += this.termBounds[t]!;
    return missing;
  }

  /** The most a page not met at all may score. */
  unseenBound(): number {
    return this.termBounds.reduce((sum, bound) => sum + bound, 0);
  }

  /** The k-th best lower bound: a score the final k-th page is sure to reach (0 when fewer than k were met). */
  kthLower(k: number): number {
    return kthLargest(this.lowers.subarray(0, this.size), k);
  }
}
