/**
 * Cuts a citation passage out of a page around the densest cluster of query-term matches.
 *
 * Matching is on analysed tokens (normalized, stemmed), so unvocalized queries find vocalized text;
 * the passage itself is always an exact slice of the original page text, its edges at sentence or
 * verse edges where one is near (`analysis/sentences.ts`).
 */
import { matchingTokens, type AnalyzedToken } from '../analysis/arabic.js';
import { isSentenceEnd, isSentenceStart, isWordEnd, isWordStart } from '../analysis/sentences.js';

export interface Passage {
  /** Offset of the passage in the page text (UTF-16 units). */
  start: number;
  length: number;
  /** Always `pageText.slice(start, start + length)`. */
  text: string;
  /** Query-term matches (analysed tokens) overlapping the passage. */
  matches: number;
}

interface Span {
  start: number;
  end: number;
}

/** Number of page tokens whose stem or root is one of the (already analysed) query terms. */
export function countMatches(text: string, queryTerms: Iterable<string>): number {
  return matchingTokens(text, new Set(queryTerms)).length;
}

interface Cluster {
  span: Span;
  distinct: number;
  count: number;
}

function isBetter(a: Cluster, b: Cluster | null): boolean {
  if (b === null) return true;
  if (a.distinct !== b.distinct) return a.distinct > b.distinct;
  if (a.count !== b.count) return a.count > b.count;
  return a.span.end - a.span.start < b.span.end - b.span.start;
}

/** Span of at most `maxChars` covering the most distinct terms, then the most matches, then the tightest. */
function densestCluster(matches: AnalyzedToken[], maxChars: number): Span | null {
  let best: Cluster | null = null;
  const inWindow = new Map<string, number>();
  let first = 0;
  for (let last = 0; last < matches.length; last++) {
    const match = matches[last] as AnalyzedToken;
    inWindow.set(match.term, (inWindow.get(match.term) ?? 0) + 1);
    // Slide the left edge until the window fits; a single over-long word is kept alone.
    while (first < last && match.end - (matches[first] as AnalyzedToken).start > maxChars) {
      const term = (matches[first] as AnalyzedToken).term;
      const left = (inWindow.get(term) ?? 1) - 1;
      if (left === 0) inWindow.delete(term);
      else inWindow.set(term, left);
      first += 1;
    }
    const span = { start: (matches[first] as AnalyzedToken).start, end: match.end };
    const candidate = { span, distinct: inWindow.size, count: last - first + 1 };
    if (isBetter(candidate, best)) best = candidate;
  }
  return best?.span ?? null;
}

/** Position in [from, to] nearest `target` that satisfies `accept`, or null. */
function nearest(from: number, to: number, target: number, accept: (p: number) => boolean): number | null {
  const reach = Math.max(target - from, to - target);
  for (let distance = 0; distance <= reach; distance++) {
    if (target - distance >= from && target - distance <= to && accept(target - distance)) return target - distance;
    if (distance > 0 && target + distance <= to && target + distance >= from && accept(target + distance)) {
      return target + distance;
    }
  }
  return null;
}

/** Start edge in [lo, core]: a sentence start near `target` if one is close, else the nearest word start. */
function chooseStart(text: string, lo: number, core: number, target: number, zone: number): number {
  const sentence = nearest(Math.max(lo, target - zone), Math.min(core, target + zone), target, (p) => isSentenceStart(text, p));
  return sentence ?? nearest(lo, core, target, (p) => isWordStart(text, p)) ?? core;
}

/** End edge in [core, maxEnd]: the furthest sentence end close to `maxEnd`, else the furthest word end. */
function chooseEnd(text: string, core: number, maxEnd: number, zone: number): number {
  const sentence = nearest(Math.max(core, maxEnd - zone), maxEnd, maxEnd, (p) => isSentenceEnd(text, p));
  return sentence ?? nearest(core, maxEnd, maxEnd, (p) => isWordEnd(text, p)) ?? core;
}

/** Cut of at most `maxChars` from `start` when no word fits; never splits a surrogate pair or strips a letter's marks. */
function hardCut(text: string, start: number, maxChars: number): Span {
  let end = Math.min(text.length, start + maxChars);
  while (end - 1 > start && end < text.length && splitsCharacter(text, end)) end -= 1;
  return { start, end };
}

function splitsCharacter(text: string, end: number): boolean {
  const previous = text.charCodeAt(end - 1);
  return (previous >= 0xd800 && previous <= 0xdbff) || /\p{M}/u.test(text.charAt(end));
}

/** Window of at most `maxChars` around `core`, centred where the page allows, edges snapped to boundaries. */
function windowAround(text: string, core: Span, maxChars: number): Span {
  if (core.end - core.start > maxChars) return hardCut(text, core.start, maxChars);
  const slack = maxChars - (core.end - core.start);
  const lo = Math.max(0, core.end - maxChars);
  const centred = Math.min(core.start - Math.floor(slack / 2), text.length - maxChars);
  const target = Math.min(core.start, Math.max(lo, centred));
  const zone = Math.floor(maxChars / 4);
  const start = chooseStart(text, lo, core.start, target, zone);
  const end = chooseEnd(text, core.end, Math.min(text.length, start + maxChars), zone);
  return { start, end };
}

/** Passage from the page start when nothing matches: first word onward, at most `maxChars`. */
function openingWindow(text: string, maxChars: number): Span {
  const start = text.search(/\S/);
  if (start < 0) return { start: 0, end: 0 };
  const maxEnd = Math.min(text.length, start + maxChars);
  const end = chooseEnd(text, start, maxEnd, Math.floor(maxChars / 4));
  return end > start ? { start, end } : hardCut(text, start, maxChars);
}

/**
 * Passage of at most `maxChars` around the densest cluster of `queryTerms` (light stems and root terms of the query),
 * snapped to word boundaries and preferring sentence edges; the page opening when nothing matches.
 */
export function cutPassage(pageText: string, queryTerms: Iterable<string>, maxChars: number): Passage {
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`maxChars must be a positive integer`);
  const matches = matchingTokens(pageText, new Set(queryTerms));
  const cluster = densestCluster(matches, maxChars);
  const { start, end } = cluster ? windowAround(pageText, cluster, maxChars) : openingWindow(pageText, maxChars);
  // Overlap rather than containment, so a hard cut through a matching word still reports it.
  const inside = matches.filter((match) => match.start < end && match.end > start).length;
  return { start, length: end - start, text: pageText.slice(start, end), matches: inside };
}
