/**
 * Exact top-k under BM25 without scoring every matching page (docs/adr/0010-exact-top-k-retrieval.md).
 *
 * A threshold algorithm over impact-ordered postings: for each query term the engine reads the
 * postings whose impact reaches a threshold λ (lowered round by round), so every page not read for
 * that term gets less than λ from it. A page read for no term scores below Σ w·λ; once the k-th best
 * lower bound among the pages read is above that, no other page can enter the top k; the pages whose
 * upper bound still could have their missing frequencies looked up, and the k best are exact.
 */
import { longestReaching, type Bm25Parameters, type CorpusStats } from './bm25.js';
import { Candidates, type ScoredTerm } from './candidates.js';
import { postingsReaching, thresholdFor, type TermDirectory } from './directory.js';
import { firstThresholds, planForPending, thresholdsBelow } from './planner.js';
import { bandTop, BAND_STARTS } from './postings.js';

export type { ScoredTerm } from './candidates.js';

/** Read, for term `term` (index into the query's terms) and band, the postings with length in (fromDl, toDl]. */
export interface RegionRequest {
  readonly term: number;
  readonly band: number;
  readonly fromDl: number;
  readonly toDl: number;
}

/** Postings of one term, as read from one segment: `books[refs[i]]` is the book of posting i. */
export interface PostingRun {
  readonly term: number;
  readonly books: readonly string[];
  /** Per position in `books`, 0 for a book whose postings are to be skipped (dead or filtered out); null keeps all. */
  readonly keep: Uint8Array | null;
  readonly refs: ArrayLike<number>;
  readonly pages: ArrayLike<number>;
  readonly tfs: ArrayLike<number>;
  readonly dls: ArrayLike<number>;
}

/** How often one term occurs in one page. */
export interface PageFrequency {
  readonly bookId: string;
  readonly page: number;
  readonly term: number;
  readonly tf: number;
}

/** Where postings and page frequencies come from (PostgreSQL in production). */
export interface PostingSource {
  /** How many postings each term's regions hold, per band (see `directory.ts`). */
  directories(): Promise<readonly TermDirectory[]>;
  read(requests: readonly RegionRequest[]): Promise<readonly PostingRun[]>;
  /** Frequencies of the given terms (indexes into the query's terms) in the given pages; absent ones are left out. */
  frequencies(pages: ReadonlyArray<{ bookId: string; page: number }>, terms: readonly number[]): Promise<readonly PageFrequency[]>;
}

export interface RankedPage {
  readonly pageId: string;
  readonly bookId: string;
  readonly page: number;
  readonly score: number;
}

export interface TopK {
  readonly results: readonly RankedPage[];
  /** Whether every posting of every term was read, so the candidates are all the matching pages. */
  readonly exhaustive: boolean;
  /** Pages met (each matches at least one term). */
  readonly candidates: number;
  readonly rounds: number;
  /** Pages whose missing frequencies were looked up one by one. */
  readonly lookups: number;
}

const SLACK = 1e-9;

/** Requests for the postings between each term's old threshold and its new one. */
function regionRequests(found: Candidates, next: readonly number[]): RegionRequest[] {
  const requests: RegionRequest[] = [];
  const none = found.bm25.k1 + 1;
  for (let t = 0; t < found.terms.length; t++) {
    const before = found.thresholds[t]!;
    const after = next[t]!;
    if (after >= before) continue;
    for (let band = 0; band < BAND_STARTS.length; band++) {
      const top = bandTop(band);
      const fromDl = before >= none ? -1 : longestReaching(top, before, found.stats, found.bm25);
      const toDl = longestReaching(top, after, found.stats, found.bm25);
      // A page holds at least as many terms as it has occurrences of one.
      if (toDl > fromDl && toDl >= BAND_STARTS[band]!) requests.push({ term: t, band, fromDl, toDl });
    }
  }
  return requests;
}

/** Reads the postings between the current thresholds and `next`; pages that cannot beat `floor` are left out. */
async function readRound(found: Candidates, source: PostingSource, next: readonly number[], floor: number): Promise<void> {
  const requests = regionRequests(found, next);
  const margin = floor * (1 - 16 * SLACK);
  if (requests.length > 0) for (const run of await source.read(requests)) found.add(run.term, run.books, run.keep, run, margin);
  found.setThresholds(next);
}

/** Looks up the frequencies not read of some candidates (by index), making their scores exact. */
async function lookUp(found: Candidates, source: PostingSource, candidates: readonly number[]): Promise<number> {
  if (candidates.length === 0) return 0;
  const open = found.terms.map((_, t) => t).filter((t) => found.thresholds[t]! > 0);
  for (const index of candidates) for (const t of open) if (found.tf(index, t) < 0) found.setTf(index, t, 0);
  const pages = candidates.map((index) => ({ bookId: found.bookOf(index), page: found.pageOf(index) }));
  for (const hit of await source.frequencies(pages, open)) {
    const index = found.find(hit.bookId, hit.page);
    if (index >= 0) found.setTf(index, hit.term, hit.tf);
  }
  return candidates.length;
}

/** Keeps the `count` indexes with the largest keys. */
class Leaders {
  readonly indexes: number[] = [];
  private readonly keys: number[] = [];

  constructor(private readonly count: number) {}

  offer(index: number, key: number): void {
    if (this.keys.length === this.count && key <= this.keys[this.count - 1]!) return;
    let at = Math.min(this.keys.length, this.count - 1);
    while (at > 0 && this.keys[at - 1]! < key) {
      this.keys[at] = this.keys[at - 1]!;
      this.indexes[at] = this.indexes[at - 1]!;
      at -= 1;
    }
    this.keys[at] = key;
    this.indexes[at] = index;
  }
}

/** The likeliest winners still missing a term: the k best by lower bound and the k best by upper bound. */
function likeliest(found: Candidates, k: number): number[] {
  const byLower = new Leaders(k);
  const byUpper = new Leaders(k);
  for (let index = 0; index < found.size; index++) {
    const missing = found.missing(index);
    if (missing === 0) continue;
    byLower.offer(index, found.lowers[index]!);
    byUpper.offer(index, found.lowers[index]! + missing);
  }
  return [...new Set([...byLower.indexes, ...byUpper.indexes])];
}

/** Candidates that may still reach the k-th score `kth` but miss some term. */
function pending(found: Candidates, kth: number): number[] {
  const open: number[] = [];
  for (let index = 0; index < found.size; index++) {
    const missing = found.missing(index);
    if (missing > 0 && (found.lowers[index]! + missing) * (1 + SLACK) >= kth) open.push(index);
  }
  return open;
}

/** Fewer than k pages met: every open list is read four times as deep. */
function deeper(found: Candidates, directories: readonly TermDirectory[]): number[] {
  return found.thresholds.map((threshold, t) => {
    if (threshold <= 0) return 0;
    const read = postingsReaching(directories[t]!, threshold, found.stats, found.bm25);
    return Math.min(threshold * 0.9, thresholdFor(directories[t]!, 4 * read + 64, found.stats, found.bm25));
  });
}

/** The `k` best pages for the weighted terms, exactly as scoring every matching page would rank them. */
export async function topK(
  terms: readonly ScoredTerm[],
  k: number,
  stats: CorpusStats,
  bm25: Bm25Parameters,
  source: PostingSource,
): Promise<TopK> {
  const found = new Candidates(terms, stats, bm25);
  const directories = await source.directories();
  let next = firstThresholds(found, directories, k);
  let rounds = 0;
  let lookups = 0;
  let kth = 0;
  for (;;) {
    await readRound(found, source, next, kth);
    rounds += 1;
    // The likeliest winners are made exact first, so the k-th score is close to the final one.
    lookups += await lookUp(found, source, likeliest(found, k));
    kth = found.kthLower(k);
    const waiting = pending(found, kth);
    const settled = kth > found.unseenBound() * (1 + SLACK);
    const further = settled ? planForPending(found, directories, waiting, kth) : null;
    if (found.thresholds.every((threshold) => threshold === 0) || (settled && further === null)) {
      lookups += await lookUp(found, source, waiting);
      break;
    }
    if (further) next = further;
    else next = kth > 0 ? thresholdsBelow(found, directories, kth) : deeper(found, directories);
  }
  // Every page that may still be in the top k is exact now; its score is summed again in query-term order.
  kth = found.kthLower(k) * (1 - 1e-6);
  const ranked: Array<{ index: number; pageId: string; score: number }> = [];
  for (let index = 0; index < found.size; index++) {
    if (found.lowers[index]! >= kth && found.missing(index) === 0) {
      ranked.push({ index, pageId: `${found.bookOf(index)}-${found.pageOf(index)}`, score: found.exact(index) });
    }
  }
  ranked.sort((a, b) => b.score - a.score || (a.pageId < b.pageId ? -1 : 1));
  const top = ranked.slice(0, k);
  return {
    results: top.map(({ index, pageId, score }) => ({ pageId, bookId: found.bookOf(index), page: found.pageOf(index), score })),
    exhaustive: found.skipped === 0 && found.thresholds.every((threshold) => threshold === 0),
    candidates: found.size,
    rounds,
    lookups,
  };
}
