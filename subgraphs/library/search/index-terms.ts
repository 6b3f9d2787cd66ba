/**
 * How analysed terms are stored for PostgreSQL full text: each page's terms — light stems and,
 * beside them, root terms (`analysis/roots.ts`) — become a tsvector (never parsed by a text search
 * configuration, so PostgreSQL sees exactly our terms), with one position per occurrence so a
 * lexeme's position count is its term frequency. Writes send it in PostgreSQL's binary form
 * (`tsvectorBinary`): reading the text literal cost PostgreSQL more than storing the page.
 */
import { analyzeTokens } from '../analysis/arabic.js';

/** PostgreSQL keeps at most 256 positions per lexeme; BM25's saturation makes more irrelevant. */
const MAX_POSITIONS = 256;

export interface IndexedTerms {
  /** The tsvector in PostgreSQL's binary form, for a `$n::tsvector` parameter. */
  readonly tsvector: Buffer;
  /** Number of words in the page that give terms (its BM25 length; root terms are not counted again). */
  readonly termCount: number;
  /** Distinct terms. */
  readonly distinct: number;
  /** Occurrences of each term (light stems and roots). */
  readonly frequencies: ReadonlyMap<string, number>;
}

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

/**
 * A page's tsvector in PostgreSQL's binary input form (`tsvectorrecv`): the lexeme count (int32),
 * then per lexeme its UTF-8 bytes ending in a zero byte, its position count (uint16) and positions
 * 1…n (uint16, weight D). PostgreSQL sorts the lexemes itself.
 */
export function tsvectorBinary(frequencies: ReadonlyMap<string, number>): Buffer {
  let size = 4;
  for (const [term, tf] of frequencies) size += Buffer.byteLength(term) + 3 + 2 * Math.min(tf, MAX_POSITIONS);
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(frequencies.size, 0);
  let at = 4;
  for (const [term, tf] of frequencies) {
    at += out.write(term, at);
    out[at++] = 0;
    const positions = Math.min(tf, MAX_POSITIONS);
    out.writeUInt16BE(positions, at);
    at += 2;
    for (let position = 1; position <= positions; position++, at += 2) out.writeUInt16BE(position, at);
  }
  return out;
}

export function indexTerms(text: string): IndexedTerms {
  const { frequencies, length } = termFrequencies(text);
  return { tsvector: tsvectorBinary(frequencies), termCount: length, distinct: frequencies.size, frequencies };
}
