import { expect } from 'vitest';
import type { RetrievedPassage } from '../../subgraphs/library/search/retrieval.service.js';

/**
 * The library's chat answers as the tests read them: retrieved passages made from a page's
 * text, and an answer cut into the runs of text each source marker closes.
 */

/**
 * A passage of `page` (page 1 of book `b`) from `start`, `length` characters long: to the page's
 * end unless given; `fields` over that (an id, a `pageText` of null).
 */
export function pagePassage(
  page: string,
  start = 0,
  length = page.length - start,
  fields: Partial<RetrievedPassage> = {},
): RetrievedPassage {
  return {
    id: 'b-1',
    bookId: 'b',
    book: 'كتاب',
    category: '',
    authors: [],
    part: '',
    page: 1,
    score: 1,
    start,
    length,
    pageChars: page.length,
    text: page.slice(start, start + length),
    pageText: page,
    ...fields,
  };
}

/** Text with every run of white space made one space, trimmed. */
export const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The answer as runs of quoted text, each closed by the number of the source it quotes; text after the last marker fails. */
export function quotedRuns(answer: string): Array<{ text: string; ref: number }> {
  const found: Array<{ text: string; ref: number }> = [];
  let rest = answer;
  for (const match of answer.matchAll(/\[(\d+)\]/g)) {
    const at = rest.indexOf(match[0]);
    found.push({ text: rest.slice(0, at).trim(), ref: Number(match[1]) });
    rest = rest.slice(at + match[0].length);
  }
  expect(rest.trim(), 'text after the last citation').toBe('');
  return found;
}
