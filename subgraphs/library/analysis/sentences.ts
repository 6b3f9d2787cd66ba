/**
 * Where sentences and Qur'an verses begin and end in a text, for passages cut at sentence edges and
 * answers quoted in whole sentences. A sentence ends at a terminator (. ؟ ? ! ۔, closing quotes or
 * brackets may follow it), at a line break or at the end of the text; a verse ends with its number
 * (﴿١٢﴾).
 */

const TERMINATORS = new Set(['.', '؟', '?', '!', '۔']);
// Closing quotes and brackets may follow a sentence terminator and still end the sentence.
const CLOSERS = new Set(['»', '"', "'", '”', '’', ')', ']', '}', '﴿', '﴾']);
const VERSE_NUMBER = /﴿[0-9٠-٩۰-۹]+﴾$/;

export interface Span {
  readonly start: number;
  readonly end: number;
}

function isSpace(text: string, index: number): boolean {
  return /\s/.test(text.charAt(index));
}

export function isWordStart(text: string, p: number): boolean {
  return p < text.length && !isSpace(text, p) && (p === 0 || isSpace(text, p - 1));
}

export function isWordEnd(text: string, p: number): boolean {
  return p > 0 && !isSpace(text, p - 1) && (p === text.length || isSpace(text, p));
}

/** Whether the text up to `end` (exclusive) closes a sentence or a verse by its last characters. */
function closesSentence(text: string, end: number): boolean {
  if (text.charAt(end - 1) === '﴾' && VERSE_NUMBER.test(text.slice(Math.max(0, end - 8), end))) return true;
  let r = end - 1;
  while (r >= 0 && CLOSERS.has(text.charAt(r))) r -= 1;
  return r >= 0 && TERMINATORS.has(text.charAt(r));
}

/** A word start preceded (across spaces) by the end of a sentence or verse, a line break or the start of the text. */
export function isSentenceStart(text: string, p: number): boolean {
  if (!isWordStart(text, p)) return false;
  let q = p - 1;
  while (q >= 0 && isSpace(text, q)) {
    if (text.charAt(q) === '\n') return true;
    q -= 1;
  }
  return q < 0 || closesSentence(text, q + 1);
}

/** A word end followed by a line break or the end of the text, or whose last characters end a sentence or verse. */
export function isSentenceEnd(text: string, p: number): boolean {
  if (!isWordEnd(text, p)) return false;
  let q = p;
  while (q < text.length && isSpace(text, q)) {
    if (text.charAt(q) === '\n') return true;
    q += 1;
  }
  return q === text.length || closesSentence(text, p);
}

/** The sentences and verses of a text, trimmed; the first and last may be cut short if the text is an excerpt. */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = -1;
  for (let p = 0; p <= text.length; p++) {
    if (start < 0 && isWordStart(text, p)) start = p;
    if (start >= 0 && isSentenceEnd(text, p)) {
      spans.push({ start, end: p });
      start = -1;
    }
  }
  return spans;
}
