/**
 * How many postings of a term a region read would return, without reading them: the rows'
 * directories (`dir`, the length of every DIR_STEP-th posting), merged per band over the segments.
 * The top-k search plans its thresholds with it, so each round reads about what it meant to.
 */
import { longestReaching, type Bm25Parameters, type CorpusStats } from './bm25.js';
import { bandTop, BAND_STARTS, DIR_STEP } from './postings.js';

/** Per band, the directory entries of every segment's row, sorted, with the postings up to each. */
export interface TermDirectory {
  readonly bands: ReadonlyArray<{ readonly dls: Int32Array; readonly postings: Int32Array } | null>;
}

/** Number of entries of a sorted array at or below `value`. */
function atOrBelow(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Postings a read of the region "impact at least λ" returns (to within DIR_STEP per segment row, from above). */
export function postingsReaching(directory: TermDirectory, threshold: number, stats: CorpusStats, bm25: Bm25Parameters): number {
  let count = 0;
  directory.bands.forEach((entries, band) => {
    if (!entries) return;
    const toDl = longestReaching(bandTop(band), threshold, stats, bm25);
    if (toDl >= BAND_STARTS[band]!) count += entries.postings[atOrBelow(entries.dls, toDl)]!;
  });
  return count;
}

/** The highest threshold whose region holds at least `wanted` postings (0 when the whole list holds fewer). */
export function thresholdFor(directory: TermDirectory, wanted: number, stats: CorpusStats, bm25: Bm25Parameters): number {
  let lo = 0;
  let hi = bm25.k1 + 1;
  if (postingsReaching(directory, 1e-9, stats, bm25) <= wanted) return 0;
  for (let step = 0; step < 40; step++) {
    const mid = (lo + hi) / 2;
    if (postingsReaching(directory, mid, stats, bm25) >= wanted) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** One segment row's directory (`dir`, lengths of every DIR_STEP-th posting) and its number of postings. */
export interface DirectoryRow {
  readonly band: number;
  readonly dir: Int32Array;
  readonly count: number;
}

/**
 * Merges segment rows into per-band sorted directories: entry j of a row stands for the postings
 * a read gains when its slice reaches it, DIR_STEP of them (fewer at the row's end).
 */
export function mergeDirectory(rows: readonly DirectoryRow[]): TermDirectory {
  const parts: Array<Array<[number, number]>> = BAND_STARTS.map(() => []);
  for (const row of rows) {
    row.dir.forEach((dl, j) => parts[row.band]?.push([dl, Math.min(DIR_STEP, row.count - j * DIR_STEP)]));
  }
  const bands = parts.map((entries) => {
    if (entries.length === 0) return null;
    entries.sort((a, b) => a[0] - b[0]);
    const dls = Int32Array.from(entries, (entry) => entry[0]);
    const postings = new Int32Array(entries.length + 1);
    entries.forEach((entry, i) => (postings[i + 1] = postings[i]! + entry[1]));
    return { dls, postings };
  });
  return { bands };
}
