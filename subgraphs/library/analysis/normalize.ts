/**
 * Arabic normalization with offsets back into the original text: tashkeel, Quranic marks and tatweel
 * dropped, letter variants and digits folded, Latin lowercased, and Uthmani superscript alef written
 * as plain spelling writes it. Every page and query goes through here, so it works on code units in
 * typed arrays rather than on strings.
 */

/** A normalized string plus, for each of its UTF-16 units, the index of its source unit in the original. */
export interface NormalizedText {
  normalized: string;
  map: number[];
}

/** The normalized text and, per unit of it, the span of the original it covers (absorbed marks included). */
export interface Spans {
  readonly normalized: string;
  readonly starts: ArrayLike<number>;
  readonly ends: ArrayLike<number>;
}

const ALEF = 0x0627;
const HAMZA = 0x0621;
const YEH = 0x064a;
const WAW = 0x0648;
const SUPERSCRIPT_ALEF = 0x0670;
const TA_MARBUTA = 0x0629;
const ALEF_MAQSURA = 0x0649;
const TATWEEL = 0x0640;
// Small high yeh after a tatweel (إِبۡرَٰهِـۧمَ, ٱلنَّبِيِّـۧنَ) is a yeh that plain spelling writes.
const SMALL_HIGH_YEH = 0x06e7;

/** Folded form of each unit of the Arabic block (U+0600–U+06FF), 0 where it stays as it is. */
const ARABIC_FOLD = new Uint16Array(256);
for (const code of [0x0622, 0x0623, 0x0625, 0x0671, 0x0672, 0x0673, 0x0675]) ARABIC_FOLD[code - 0x0600] = ALEF; // آ أ إ ٱ…
for (const code of [0x0649, 0x06cc, 0x0626]) ARABIC_FOLD[code - 0x0600] = YEH; // ى, Persian yeh, ئ
ARABIC_FOLD[0x0624 - 0x0600] = WAW; // ؤ
for (const code of [0x0629, 0x06c0, 0x06d5]) ARABIC_FOLD[code - 0x0600] = 0x0647; // ة → ه
for (const code of [0x06a9, 0x06aa]) ARABIC_FOLD[code - 0x0600] = 0x0643; // Persian keheh → ك
for (let digit = 0; digit < 10; digit++) {
  ARABIC_FOLD[0x0660 + digit - 0x0600] = 0x30 + digit;
  ARABIC_FOLD[0x06f0 + digit - 0x0600] = 0x30 + digit;
}

/** True for code units that carry no letter: tashkeel, Quranic marks, tatweel and invisible format marks. */
function isDropped(code: number): boolean {
  return (
    (code >= 0x064b && code <= 0x065f) ||
    (code >= 0x06d6 && code <= 0x06ed) ||
    (code >= 0x0610 && code <= 0x061a) ||
    (code >= 0x08d3 && code <= 0x08ff) ||
    code === 0x0640 ||
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    code === 0xfeff ||
    code === 0x00ad
  );
}

/** The folded form of one code unit (never longer than one unit, so offsets stay one-to-one). */
function foldUnit(code: number): number {
  if (code >= 0x0600 && code <= 0x06ff) return ARABIC_FOLD[code - 0x0600] || code;
  if (code >= 0x41 && code <= 0x5a) return code + 0x20;
  if (code >= 0x00c0 && code < 0x0250) {
    const lower = String.fromCharCode(code).toLowerCase();
    return lower.length === 1 ? lower.charCodeAt(0) : code;
  }
  return code;
}

// Words plain spelling writes without the alef that Uthmani script marks with a superscript alef
// (ذَٰلِكَ ذلك, هَٰذَا هذا, ٱلرَّحۡمَٰنِ الرحمن, إِلَٰهَ إله, لَٰكِنَّ لكن, أُوْلَٰٓئِكَ أولئك); normalized, alef omitted.
const ALEF_UNWRITTEN = new Set([
  ...['هذا', 'هذه', 'هذان', 'هذين', 'هولاء', 'ذلك', 'ذلكم', 'ذلكما', 'ذلكن', 'رحمن', 'اوليك', 'اولايك'],
  ...['اله', 'الهه', 'الهك', 'الهكم', 'الهنا', 'الههم', 'الهي', 'الهين', 'الهتنا', 'الهتكم', 'الهتهم'],
  ...['لكن', 'لكنه', 'لكنا', 'لكني', 'لكنهم', 'لكنكم', 'لكنما'],
]);
const CLITICS = /^[وف]?(?:[بك]?ال|لل|[بلك])?/;

/** Index of the next unit of `text` after `i` that is not a mark, or -1. */
function nextLetter(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) if (!isDropped(text.charCodeAt(j)) && text.charCodeAt(j) !== SUPERSCRIPT_ALEF) return j;
  return -1;
}

const UTF16 = new TextDecoder('utf-16le');

/** The normalization being built: output units, their source spans, and which came from a superscript alef. */
class Builder {
  readonly codes: Uint16Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly superscript: Uint8Array;
  length = 0;
  anySuperscript = false;

  constructor(size: number) {
    this.codes = new Uint16Array(size);
    this.starts = new Int32Array(size);
    this.ends = new Int32Array(size);
    this.superscript = new Uint8Array(size);
  }

  push(code: number, start: number, fromSuperscript: boolean): void {
    this.codes[this.length] = code;
    this.starts[this.length] = start;
    this.ends[this.length] = start + 1;
    this.superscript[this.length] = fromSuperscript ? 1 : 0;
    this.length += 1;
  }

  text(): string {
    return UTF16.decode(this.codes.subarray(0, this.length));
  }
}

/**
 * Uthmani superscript alef (U+0670) stands for a long a that plain spelling writes as ا (ٱلۡعَٰلَمِينَ
 * العالمين, ٱلسَّمَٰوَٰتِ السماوات, ٱلصَّلَوٰةَ الصلاة), except after ى and in the few words listed above.
 * Returns whether a new unit was pushed (marked as coming from a superscript alef).
 */
function superscriptAlef(text: string, i: number, out: Builder): boolean {
  const last = out.length - 1;
  if (last < 0 || !/\p{L}/u.test(String.fromCharCode(out.codes[last]!))) return false;
  if (text.charCodeAt(out.starts[last]!) === ALEF_MAQSURA || out.codes[last] === ALEF) {
    out.ends[last] = i + 1;
    return false;
  }
  if (out.codes[last] === WAW && text.charCodeAt(nextLetter(text, i)) === TA_MARBUTA) {
    out.codes[last] = ALEF;
    out.ends[last] = i + 1;
    return false;
  }
  out.push(ALEF, i, true);
  out.anySuperscript = true;
  return true;
}

/** Drops superscript alefs again in words whose plain spelling omits them. */
function restoreUnwritten(out: Builder, normalized: string): Spans {
  const spans = { normalized, starts: out.starts.subarray(0, out.length), ends: out.ends.subarray(0, out.length) };
  if (!out.anySuperscript) return spans;
  const drop = new Uint8Array(out.length);
  let any = false;
  for (const match of normalized.matchAll(/[\p{L}\p{N}]+/gu)) {
    const positions: number[] = [];
    let plain = '';
    for (let k = match.index; k < match.index + match[0].length; k++) {
      if (out.superscript[k]) positions.push(k);
      else plain += normalized.charAt(k);
    }
    if (positions.length === 0 || !(ALEF_UNWRITTEN.has(plain) || ALEF_UNWRITTEN.has(plain.replace(CLITICS, '')))) continue;
    for (const k of positions) {
      drop[k] = 1;
      out.ends[k - 1] = Math.max(out.ends[k - 1] ?? 0, out.ends[k]!);
    }
    any = true;
  }
  if (!any) return spans;
  const keep = (_: unknown, k: number) => drop[k] === 0;
  return { normalized: normalized.split('').filter(keep).join(''), starts: spans.starts.filter(keep), ends: spans.ends.filter(keep) };
}

/** Normalizes and records, per output unit, the original span it covers (absorbed marks included). */
export function normalizeSpans(text: string): Spans {
  const out = new Builder(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const last = out.length - 1;
    if (code === SUPERSCRIPT_ALEF) {
      if (!superscriptAlef(text, i, out) && last >= 0) out.ends[last] = Math.max(out.ends[last]!, i + 1);
    } else if (code === SMALL_HIGH_YEH && text.charCodeAt(i - 1) === TATWEEL) {
      out.push(YEH, i, false);
    } else if (isDropped(code)) {
      // Marks belong to the letter before them, so a word's span covers its own vowels.
      if (last >= 0) out.ends[last] = i + 1;
    } else {
      const folded = foldUnit(code);
      if (folded === ALEF && last >= 0 && (out.codes[last] === HAMZA || out.codes[last] === ALEF)) {
        // Uthmani ءا and plain آ/أأ spell the same sound; merging keeps both spellings equal.
        out.codes[last] = ALEF;
        out.ends[last] = i + 1;
      } else out.push(folded, i, false);
    }
  }
  return restoreUnwritten(out, out.text());
}

/** Normalized text and `map[i]` = index in `text` of normalized unit `i`. */
export function normalizeWithOffsets(text: string): NormalizedText {
  const { normalized, starts } = normalizeSpans(text);
  return { normalized, map: Array.from(starts) };
}

/** Strips tashkeel and tatweel, folds letter variants and digits, lowercases Latin. */
export function normalizeArabic(text: string): string {
  return normalizeSpans(text).normalized;
}
