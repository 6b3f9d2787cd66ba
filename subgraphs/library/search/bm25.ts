import type { QueryWord } from '../analysis/arabic.js';

/**
 * The library's ranking function, BM25, in one place: the engine scores with it and bounds what it
 * has not read with it. Every score is computed in this process, term by term in query order, so a
 * page's score is the same number whichever way the engine reached the page.
 */

/** BM25 parameters; tuned on the Qur'an QA 2023 training questions (see docs/benchmarks.md). */
export interface Bm25Parameters {
  /** Term-frequency saturation. */
  readonly k1: number;
  /** Length normalisation (0 = none, 1 = full). */
  readonly b: number;
}

export const DEFAULT_BM25: Bm25Parameters = { k1: 0.9, b: 0.1 };

/** PostgreSQL keeps at most 256 positions per lexeme, so a term frequency is at most this. */
export const MAX_TF = 256;

/** What the scores of one query depend on besides the page itself. */
export interface CorpusStats {
  /** Pages in the library (at least 1). */
  readonly n: number;
  /** Mean page length in terms (at least 1). */
  readonly avgdl: number;
}

/** Inverse document frequency of a term found on `df` of `n` pages (never negative). */
export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The saturated, length-normalised frequency of a term in a page: BM25 without its weight, below k1 + 1. */
export function impact(tf: number, dl: number, stats: CorpusStats, bm25: Bm25Parameters): number {
  return (tf * (bm25.k1 + 1)) / (tf + bm25.k1 * (1 - bm25.b + (bm25.b * dl) / stats.avgdl));
}

/**
 * The longest page on which a term occurring `tf` times still reaches `threshold` impact, or
 * -1 when none does; a little generous, so rounding never leaves out a page that reaches it.
 */
export function longestReaching(tf: number, threshold: number, stats: CorpusStats, bm25: Bm25Parameters): number {
  if (threshold <= 0) return Number.MAX_SAFE_INTEGER;
  const { k1, b } = bm25;
  if (b === 0) return impact(tf, 0, stats, bm25) >= threshold * (1 - 1e-9) ? Number.MAX_SAFE_INTEGER : -1;
  const dl = (((tf * (k1 + 1)) / threshold - tf) / k1 - (1 - b)) * (stats.avgdl / b);
  if (!Number.isFinite(dl)) return Number.MAX_SAFE_INTEGER;
  return dl < 0 ? -1 : Math.floor(dl * (1 + 1e-9) + 1e-6);
}

/** A weighted query term: `weight` multiplies its BM25 contribution. */
export interface WeightedTerm {
  readonly term: string;
  readonly weight: number;
}

/** Weight of a query word's root term beside its light stem (weight 1); tuned with 5-fold cross-validation (docs/benchmarks.md). */
export const ROOT_WEIGHT = 2;

/** The terms a query is scored on: its light stems, then its distinct root terms. */
export function weightedQuery(words: readonly QueryWord[], rootWeight = ROOT_WEIGHT): WeightedTerm[] {
  const roots = rootWeight > 0 ? [...new Set(words.map((word) => word.root))] : [];
  return [...words.map((word) => ({ term: word.term, weight: 1 })), ...roots.map((root) => ({ term: root, weight: rootWeight }))];
}

/** A page's score from its frequencies of the query terms (aligned with `weights`; 0 where absent). */
export function pageScore(
  tfs: ArrayLike<number>,
  dl: number,
  weights: ArrayLike<number>,
  stats: CorpusStats,
  bm25: Bm25Parameters,
): number {
  let score = 0;
  for (let t = 0; t < weights.length; t++) {
    const tf = tfs[t] ?? 0;
    if (tf > 0) score += (weights[t] ?? 0) * impact(tf, dl, stats, bm25);
  }
  return score;
}
