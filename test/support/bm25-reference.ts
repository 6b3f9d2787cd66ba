import { analyzeQueryWords, analyzeTokens } from '../../subgraphs/library/analysis/arabic.js';
import { DEFAULT_BM25, ROOT_WEIGHT } from '../../subgraphs/library/search/bm25.js';

/**
 * The exhaustive BM25 reference the engine's ranking is checked against: every page of the library,
 * analysed here from its stored text, scored with BM25 (DEFAULT_BM25; IDF ln(1 + (N - df + 0.5) /
 * (df + 0.5))) on the query's light stems (weight 1) then its distinct root terms (weight
 * ROOT_WEIGHT), term by term in that order, the page length counting its words once; best first,
 * ties by page id.
 */
export interface ReferencePage {
  readonly id: string;
  readonly dl: number;
  readonly tfs: ReadonlyMap<string, number>;
}

/** A page's length and term frequencies (light stems and roots, each at most 256), from its text. */
export function referencePage(id: string, text: string): ReferencePage {
  const tokens = analyzeTokens(text);
  const tfs = new Map<string, number>();
  for (const term of tokens.flatMap((token) => [token.term, token.root])) tfs.set(term, Math.min((tfs.get(term) ?? 0) + 1, 256));
  return { id, dl: tokens.length, tfs };
}

/** The `k` best pages for `query`, scoring every page of the library. */
export function referenceTopK(pages: readonly ReferencePage[], query: string, k: number): Array<{ id: string; score: number }> {
  const { k1, b } = DEFAULT_BM25;
  const words = analyzeQueryWords(query);
  const roots = [...new Set(words.map((word) => word.root))];
  const terms = [...words.map((word) => word.term), ...roots];
  const n = pages.length;
  const avgdl = pages.reduce((sum, page) => sum + page.dl, 0) / n;
  const weights = terms.map((term, t) => {
    const df = pages.filter((page) => page.tfs.has(term)).length;
    return (t < words.length ? 1 : ROOT_WEIGHT) * Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  return pages
    .filter((page) => terms.some((term) => page.tfs.has(term)))
    .map((page) => {
      let score = 0;
      terms.forEach((term, t) => {
        const tf = page.tfs.get(term) ?? 0;
        if (tf > 0) score += weights[t]! * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * page.dl) / avgdl)));
      });
      return { id: page.id, score };
    })
    .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
    .slice(0, k);
}
