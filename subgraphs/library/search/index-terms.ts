/**
 * How analysed terms are stored for PostgreSQL full text: each page's terms become a tsvector
 * written as a literal (never re-parsed by a text search configuration, so PostgreSQL sees exactly
 * our terms), with one position per occurrence so a lexeme's position count is its term frequency.
 */
import { analyze } from '../analysis/arabic.js';

/** PostgreSQL keeps at most 256 positions per lexeme; BM25's saturation makes more irrelevant. */
const MAX_POSITIONS = 256;

export interface IndexedTerms {
  /** tsvector literal, e.g. `'صبر':1,2 'كتاب':1`. */
  readonly tsvector: string;
  /** Number of terms in the page (its BM25 length). */
  readonly termCount: number;
  /** Distinct terms. */
  readonly distinct: number;
}

/** Quotes a lexeme for a tsvector or tsquery literal. */
export function quoteLexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** A PostgreSQL text[] literal, for array parameters (MikroORM expands JS arrays into lists). */
export function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

/** Term frequencies of a text, as the index stores them. */
export function termFrequencies(text: string): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const term of analyze(text)) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  return frequencies;
}

export function indexTerms(text: string): IndexedTerms {
  const frequencies = termFrequencies(text);
  const lexemes: string[] = [];
  let termCount = 0;
  for (const [term, tf] of frequencies) {
    termCount += tf;
    const positions = Array.from({ length: Math.min(tf, MAX_POSITIONS) }, (_, i) => i + 1).join(',');
    lexemes.push(`${quoteLexeme(term)}:${positions}`);
  }
  return { tsvector: lexemes.join(' '), termCount, distinct: frequencies.size };
}

/** A tsquery matching pages that contain any of the terms. */
export function anyTermQuery(terms: readonly string[]): string {
  return terms.map(quoteLexeme).join(' | ');
}
