/**
 * Where the top-k search lowers its thresholds next, planned on the terms' directories (how many
 * postings each threshold would read) so that every round reads about what it needs and no more.
 */
import type { Candidates } from './candidates.js';
import { postingsReaching, thresholdFor, type TermDirectory } from './directory.js';

/** Postings read per term in the first round: enough for the likeliest winners. */
const FIRST_READ = 64;
/** A lookup of one page costs about as much as reading this many postings. */
const LOOKUP_COST = 80;
/** Thresholds are lowered in steps of this factor when planning. */
const LEVEL = 0.92;
/** Postings a round may read at least. */
const ROUND_READ = 1024;
const SLACK = 1e-9;

/** First thresholds: each term's best FIRST_READ-or-so postings (whole lists when they are short). */
export function firstThresholds(found: Candidates, directories: readonly TermDirectory[], k: number): number[] {
  const wanted = Math.max(FIRST_READ, 4 * k);
  return directories.map((directory) => thresholdFor(directory, wanted, found.stats, found.bm25));
}

/** Postings below a term's current threshold that lowering it to `threshold` would read. */
function cost(found: Candidates, directories: readonly TermDirectory[], t: number, threshold: number): number {
  const { stats, bm25 } = found;
  return postingsReaching(directories[t]!, threshold, stats, bm25) - postingsReaching(directories[t]!, found.thresholds[t]!, stats, bm25);
}

/** The next level below a threshold (0 once it is small). */
function below(threshold: number): number {
  return threshold < 0.02 ? 0 : threshold * LEVEL;
}

/**
 * Thresholds low enough that no unread page can reach `kth`, reading as few postings as it can:
 * step by step, the term whose next level buys the most bound per posting read comes down.
 */
export function thresholdsBelow(found: Candidates, directories: readonly TermDirectory[], kth: number): number[] {
  const next = [...found.thresholds];
  const target = kth / (1 + 16 * SLACK);
  let bound = found.unseenBound();
  // A round reads at most a few times what was read so far: the k-th score it finds may spare the rest.
  let budget = Math.max(ROUND_READ, 3 * found.size);
  while (bound >= target && budget > 0) {
    let choice = -1;
    let ratio = Infinity;
    for (let t = 0; t < next.length; t++) {
      if (next[t]! <= 0) continue;
      const gain = found.terms[t]!.weight * (next[t]! - below(next[t]!));
      const read = Math.max(1, cost(found, directories, t, below(next[t]!)) - cost(found, directories, t, next[t]!));
      if (read / gain < ratio) {
        ratio = read / gain;
        choice = t;
      }
    }
    if (choice < 0) break;
    budget -= ratio * found.terms[choice]!.weight * (next[choice]! - below(next[choice]!));
    bound -= found.terms[choice]!.weight * (next[choice]! - below(next[choice]!));
    next[choice] = below(next[choice]!);
  }
  return next;
}

/**
 * Whether to look the waiting candidates up, or first read further down one list: the one they
 * miss most, to the threshold that costs least — postings read plus the lookups still left, each
 * lookup counted as LOOKUP_COST postings. A candidate is settled by a lower threshold x of term t
 * once it would stay below `kth` even with t's contribution at x. Returns the new thresholds, or
 * null to look them up now.
 */
export function planForPending(
  found: Candidates,
  directories: readonly TermDirectory[],
  waiting: readonly number[],
  kth: number,
): number[] | null {
  const open = found.thresholds.map((threshold, t) => (threshold > 0 ? t : -1)).filter((t) => t >= 0);
  const misses = open.map((t) => waiting.filter((index) => found.tf(index, t) < 0).length);
  const t = open[misses.indexOf(Math.max(...misses))];
  if (t === undefined) return null;
  const { weight } = found.terms[t]!;
  const current = found.thresholds[t]!;
  // Below its need, a candidate's upper bound falls under kth (its other missing terms kept at their bounds).
  const needs = waiting
    .filter((index) => found.tf(index, t) < 0)
    .map((index) => (kth / (1 + 16 * SLACK) - found.lowers[index]! - found.missing(index) + weight * current) / weight)
    .sort((a, b) => a - b);
  const others = waiting.length - needs.length;
  const read = (threshold: number) => postingsReaching(directories[t]!, threshold, found.stats, found.bm25);
  const already = read(current);
  let best = { cost: LOOKUP_COST * waiting.length, threshold: current };
  for (let left = 0; left < needs.length; left = left < 16 ? left + 4 : left * 2) {
    const threshold = Math.max(0, Math.min(current, needs[left]!) * (1 - 1e-9));
    const cost = read(threshold) - already + LOOKUP_COST * (left + others);
    if (cost < best.cost) best = { cost, threshold };
  }
  if (best.threshold >= current) return null;
  const next = [...found.thresholds];
  next[t] = best.threshold < 1e-3 ? 0 : best.threshold;
  return next;
}
