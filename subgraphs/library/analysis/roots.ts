/**
 * A root-level form of a word, beside its light stem: affixes stripped further and the vowel
 * letters of common patterns taken out, in the manner of the ISRI stemmer (Taghva et al., 2005)
 * without its root dictionary, so صابرين، صبروا and الصبر all give صبر, and كاتب and مكتوب give كتب.
 * Wrong for some words (فرعون gives فرع), which costs little as it only adds a term beside the stem.
 */

const PREFIXES_3 = ['كال', 'بال', 'ولل', 'وال'];
const PREFIXES_2 = ['ال', 'لل'];
const SUFFIXES_3 = ['تمل', 'همل', 'تان', 'تين', 'كمل'];
const SUFFIXES_2 = ['ون', 'ات', 'ان', 'ين', 'تن', 'كم', 'هن', 'نا', 'يا', 'ها', 'تم', 'كن', 'ني', 'وا', 'ما', 'هم'];
const PREFIXES_1 = new Set(['ا', 'ب', 'ت', 'س', 'ف', 'ل', 'ن', 'و', 'ي']);
const SUFFIXES_1 = new Set(['ه', 'ا', 'ت', 'ك', 'ن', 'ي']);
const LONG_VOWELS = new Set(['ا', 'و', 'ي']);

/** Marks a root term, so roots and light stems never meet in the index. */
export const ROOT_MARK = '√';

function prefix1(word: string): string {
  return word.length > 3 && PREFIXES_1.has(word.charAt(0)) ? word.slice(1) : word;
}

function suffix1(word: string): string {
  return word.length > 3 && SUFFIXES_1.has(word.charAt(word.length - 1)) ? word.slice(0, -1) : word;
}

/** Four letters: مفعل, فاعل, فعال / فعول / فعيل, فعلة, or one more affix off. */
function four(word: string): string {
  if (word.charAt(0) === 'م') return word.slice(1);
  if (word.charAt(1) === 'ا') return word.charAt(0) + word.slice(2);
  if (LONG_VOWELS.has(word.charAt(2))) return word.slice(0, 2) + word.charAt(3);
  if (word.charAt(3) === 'ه') return word.slice(0, 3);
  const shorter = suffix1(word);
  return shorter.length === 4 ? prefix1(shorter) : shorter;
}

/** Five letters: افتعال-like, مفعول / مفعال, تفاعل, مفاعل, انفعل, افتعل, مفتعل, تفعّل, or one more affix off. */
function five(word: string): string {
  const [c0, c1, c2, c3] = [word.charAt(0), word.charAt(1), word.charAt(2), word.charAt(3)];
  if (c0 === 'ا' && c2 === 'ا') return c1 + word.slice(3);
  if (c0 === 'م' && LONG_VOWELS.has(c3)) return word.slice(1, 3) + word.charAt(4);
  if ((c0 === 'ت' || c0 === 'م') && c2 === 'ا') return c1 + word.slice(3);
  if (c0 === 'ا' && c1 === 'ن') return word.slice(2);
  if ((c0 === 'ا' || c0 === 'م') && c2 === 'ت') return c1 + word.slice(3);
  if (c0 === 'ت') return four(word.slice(1));
  const shorter = suffix1(word);
  const stripped = shorter.length === 5 ? prefix1(shorter) : shorter;
  return stripped.length === 4 ? four(stripped) : stripped;
}

/** Six letters: استفعل, مستفعل, or one more affix off. */
function six(word: string): string {
  if (word.startsWith('است') || word.startsWith('مست')) return word.slice(3);
  const shorter = suffix1(word);
  const stripped = shorter.length === 6 ? prefix1(shorter) : shorter;
  return stripped.length === 5 ? five(stripped) : stripped;
}

/** The root-level form of a normalized word (`normalize.ts`), marked with ROOT_MARK. */
export function rootOf(word: string): string {
  let w = word;
  if (w.length >= 6 && PREFIXES_3.some((prefix) => w.startsWith(prefix))) w = w.slice(3);
  if (w.length >= 5 && PREFIXES_2.some((prefix) => w.startsWith(prefix))) w = w.slice(2);
  if (w.length >= 6 && SUFFIXES_3.some((suffix) => w.endsWith(suffix))) w = w.slice(0, -3);
  if (w.length >= 5 && SUFFIXES_2.some((suffix) => w.endsWith(suffix))) w = w.slice(0, -2);
  if (w.length >= 4 && w.startsWith('وو')) w = w.slice(1);
  if (w.length >= 7) w = suffix1(prefix1(w));
  if (w.length === 6) w = six(w);
  else if (w.length === 5) w = five(w);
  else if (w.length === 4) w = four(w);
  return `${ROOT_MARK}${w}`;
}
