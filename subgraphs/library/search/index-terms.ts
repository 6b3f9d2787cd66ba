/**
 * How analysed terms are stored for PostgreSQL full text: each page's terms — light stems and,
 * beside them, root terms (`analysis/roots.ts`) — become a tsvector written as a literal (never
 * re-parsed by a text search configuration, so PostgreSQL sees exactly our terms), with one position
 * per occurrence so a lexeme's position count is its term frequency.
 */
import { analyzeTokens } from '../analysis/arabic.js';

/** PostgreSQL keeps at most 256 positions per lexeme; BM25's saturation makes more irrelevant. */
const MAX_POSITIONS = 256;

export interface IndexedTerms {
  /** tsvector literal, e.g. `'صبر':1,2 'كتاب':1`. */
  readonly tsvector: string;
  /** Number of words in the page that give terms (its BM25 length; root terms are not counted again). */
  readonly termCount: number;
  /** Distinct terms. */
  readonly distinct: number;
  /** Occurrences of each term (light stems and roots). */
  readonly frequencies: ReadonlyMap<string, number>;
}

/** Quotes a lexeme for a tsvector literal. */
function quoteLexeme(term: string): string {
  if (!term.includes("'") && !term.includes('\\')) return `'${term}'`;
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** "1", "1,2", "1,2,3"…: the positions written for a term frequency. */
const POSITIONS = Array.from({ length: MAX_POSITIONS }, (_, i) => Array.from({ length: i + 1 }, (_, j) => j + 1).join(','));

/** A PostgreSQL text[] literal, for array parameters (MikroORM expands JS arrays into lists). */
export function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

/** Term frequencies of a text, light stems and root terms, as the index stores them; and its length. */
export function termFrequencies(text: string): { frequencies: Map<string, number>; length: number } {
  const frequencies = new Map<string, number>();
  const tokens = analyzeTokens(text);
  for (const token of tokens) {
    frequencies.set(token.term, (frequencies.get(token.term) ?? 0) + 1);
    frequencies.set(token.root, (frequencies.get(token.root) ?? 0) + 1);
  }
  return { frequencies, length: tokens.length };
}

export function indexTerms(text: string): IndexedTerms {
  const { frequencies, length } = termFrequencies(text);
  const lexemes: string[] = [];
  for (const [term, tf] of frequencies) {
    const positions = POSITIONS[Math.min(tf, MAX_POSITIONS) - 1]!;
    lexemes.push(`${quoteLexeme(term)}:${positions}`);
  }
  return { tsvector: lexemes.join(' '), termCount: length, distinct: frequencies.size, frequencies };
}
