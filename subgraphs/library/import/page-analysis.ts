/**
 * What an import needs of each page's text: its term frequencies (light stems and roots), its
 * length in terms and its tsvector in binary form. One function, run in this thread or in the
 * import's analysis worker (`page-analyzer.ts`), so both give the same bytes.
 */
import { termFrequencies, tsvectorBinary } from '../search/index-terms.js';

export interface AnalysedPage {
  /** The page's tsvector in PostgreSQL's binary form (see `index-terms.ts`). */
  readonly tsvector: Buffer;
  /** Words giving terms: the page's BM25 length. */
  readonly termCount: number;
  /** Distinct terms, and beside each its frequency. */
  readonly terms: readonly string[];
  readonly tfs: Uint16Array;
}

export function analysePage(text: string): AnalysedPage {
  const { frequencies, length } = termFrequencies(text);
  const tfs = new Uint16Array(frequencies.size);
  let i = 0;
  for (const tf of frequencies.values()) tfs[i++] = tf;
  return { tsvector: tsvectorBinary(frequencies), termCount: length, terms: [...frequencies.keys()], tfs };
}
