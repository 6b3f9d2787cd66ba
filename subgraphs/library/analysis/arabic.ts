/**
 * Arabic text analysis shared by indexing and querying: normalization (with offsets back into the
 * original text, and Uthmani superscript alef written as plain spelling writes it), tokenization, stop-words and Light10-style light stemming.
 *
 * Pages and queries must go through the same functions so that their terms compare equal.
 */

/** A normalized string plus, for each of its UTF-16 units, the index of its source unit in the original. */
export interface NormalizedText {
  normalized: string;
  map: number[];
}

/** A word of the normalized text; `start`/`end` are offsets in the text given to `tokenize`. */
export interface Token {
  word: string;
  start: number;
  end: number;
}

/** An index term (normalized, stemmed) with the offsets of the word it came from. */
export interface AnalyzedToken {
  term: string;
  start: number;
  end: number;
}

const ALEF = 'ا';
const HAMZA = 'ء';

// Single-unit foldings; everything not listed here (and not dropped) is kept as is.
const FOLD = new Map<number, string>([
  [0x0622, ALEF], // آ
  [0x0623, ALEF], // أ
  [0x0625, ALEF], // إ
  [0x0671, ALEF], // ٱ alef wasla
  [0x0672, ALEF],
  [0x0673, ALEF],
  [0x0675, ALEF],
  [0x0649, 'ي'], // ى
  [0x06cc, 'ي'], // Persian yeh
  [0x0626, 'ي'], // ئ
  [0x0624, 'و'], // ؤ
  [0x0629, 'ه'], // ة
  [0x06c0, 'ه'],
  [0x06d5, 'ه'],
  [0x06a9, 'ك'], // Persian keheh
  [0x06aa, 'ك'],
]);

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
function foldUnit(ch: string, code: number): string {
  const folded = FOLD.get(code);
  if (folded !== undefined) return folded;
  if (code >= 0x0660 && code <= 0x0669) return String.fromCharCode(0x30 + code - 0x0660);
  if (code >= 0x06f0 && code <= 0x06f9) return String.fromCharCode(0x30 + code - 0x06f0);
  if (code < 0x0080 || (code >= 0x00c0 && code < 0x0250)) {
    const lower = ch.toLowerCase();
    return lower.length === 1 ? lower : ch;
  }
  return ch;
}

interface Spans {
  normalized: string;
  starts: number[];
  ends: number[];
}

const SUPERSCRIPT_ALEF = 0x0670;
const TA_MARBUTA = 0x0629;
const ALEF_MAQSURA = 0x0649;
const TATWEEL = 0x0640;
// Small high yeh after a tatweel (إِبۡرَٰهِـۧمَ, ٱلنَّبِيِّـۧنَ) is a yeh that plain spelling writes.
const SMALL_HIGH_YEH = 0x06e7;

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

/**
 * Uthmani superscript alef (U+0670) stands for a long a that plain spelling writes as ا (ٱلۡعَٰلَمِينَ
 * العالمين, ٱلسَّمَٰوَٰتِ السماوات, ٱلصَّلَوٰةَ الصلاة), except after ى and in the few words listed above.
 * Returns whether a new unit was pushed (marked as coming from a superscript alef).
 */
function superscriptAlef(text: string, i: number, out: string[], starts: number[], ends: number[]): boolean {
  const last = out.length - 1;
  if (last < 0 || !/\p{L}/u.test(out[last] ?? '')) return false;
  if (text.charCodeAt(starts[last] ?? -1) === ALEF_MAQSURA || out[last] === ALEF) {
    ends[last] = i + 1;
    return false;
  }
  if (out[last] === 'و' && text.charCodeAt(nextLetter(text, i)) === TA_MARBUTA) {
    out[last] = ALEF;
    ends[last] = i + 1;
    return false;
  }
  return true;
}

/** Drops superscript alefs again in words whose plain spelling omits them. */
function restoreUnwritten(spans: Spans, fromSuperscript: boolean[]): Spans {
  const { normalized, starts, ends } = spans;
  const drop = new Array<boolean>(normalized.length).fill(false);
  let any = false;
  for (const match of normalized.matchAll(/[\p{L}\p{N}]+/gu)) {
    const positions: number[] = [];
    let plain = '';
    for (let k = match.index; k < match.index + match[0].length; k++) {
      if (fromSuperscript[k]) positions.push(k);
      else plain += normalized.charAt(k);
    }
    if (positions.length === 0 || !(ALEF_UNWRITTEN.has(plain) || ALEF_UNWRITTEN.has(plain.replace(CLITICS, '')))) continue;
    for (const k of positions) {
      drop[k] = true;
      ends[k - 1] = Math.max(ends[k - 1] ?? 0, ends[k] ?? 0);
    }
    any = true;
  }
  if (!any) return spans;
  const keep = (_: unknown, k: number) => !drop[k];
  return { normalized: [...normalized].filter(keep).join(''), starts: starts.filter(keep), ends: ends.filter(keep) };
}

/** Normalizes and records, per output unit, the original span it covers (absorbed marks included). */
function normalizeSpans(text: string): Spans {
  const out: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const fromSuperscript: boolean[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const last = out.length - 1;
    if (code === SUPERSCRIPT_ALEF) {
      if (superscriptAlef(text, i, out, starts, ends)) {
        out.push(ALEF);
        starts.push(i);
        ends.push(i + 1);
        fromSuperscript.push(true);
      } else if (last >= 0) ends[last] = Math.max(ends[last] ?? 0, i + 1);
      continue;
    }
    if (code === SMALL_HIGH_YEH && text.charCodeAt(i - 1) === TATWEEL) {
      out.push('ي');
      starts.push(i);
      ends.push(i + 1);
      fromSuperscript.push(false);
      continue;
    }
    if (isDropped(code)) {
      // Marks belong to the letter before them, so a word's span covers its own vowels.
      if (last >= 0) ends[last] = i + 1;
      continue;
    }
    const folded = foldUnit(text.charAt(i), code);
    if (folded === ALEF && (out[last] === HAMZA || out[last] === ALEF)) {
      // Uthmani ءا and plain آ/أأ spell the same sound; merging keeps both spellings equal.
      out[last] = ALEF;
      ends[last] = i + 1;
      continue;
    }
    out.push(folded);
    starts.push(i);
    ends.push(i + 1);
    fromSuperscript.push(false);
  }
  return restoreUnwritten({ normalized: out.join(''), starts, ends }, fromSuperscript);
}

/** Normalized text and `map[i]` = index in `text` of normalized unit `i`. */
export function normalizeWithOffsets(text: string): NormalizedText {
  const { normalized, starts } = normalizeSpans(text);
  return { normalized, map: starts };
}

/** Strips tashkeel and tatweel, folds letter variants and digits, lowercases Latin. */
export function normalizeArabic(text: string): string {
  return normalizeSpans(text).normalized;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** Words of the normalized text, each with its span in the original `text`. */
export function tokenize(text: string): Token[] {
  const { normalized, starts, ends } = normalizeSpans(text);
  const tokens: Token[] = [];
  for (const match of normalized.matchAll(WORD)) {
    const first = match.index;
    const last = first + match[0].length - 1;
    tokens.push({ word: match[0], start: starts[first] ?? 0, end: ends[last] ?? text.length });
  }
  return tokens;
}

// Normalized forms (أ→ا, ى→ي, ة→ه, ؤ→و, ئ→ي) so lookups need no second normalization.
const QUESTION_WORDS = ['ما', 'ماذا', 'من', 'متي', 'اين', 'كيف', 'لماذا', 'هل', 'كم', 'اي', 'ايه', 'ايان', 'اني', 'لم'];

const FUNCTION_WORDS = [
  ...['في', 'علي', 'الي', 'عن', 'مع', 'عند', 'لدي', 'حتي', 'منذ', 'مذ', 'بين', 'قبل', 'بعد', 'فوق', 'تحت', 'دون'],
  ...['حول', 'نحو', 'خلال', 'لدن', 'ان', 'انما', 'اذا', 'اذ', 'اذن', 'لو', 'لولا', 'لا', 'لن', 'ليس', 'ليست'],
  ...['ليسوا', 'قد', 'لقد', 'سوف', 'كي', 'لكي', 'كما', 'او', 'ام', 'ثم', 'بل', 'لكن', 'لكنه', 'ولكن', 'الا', 'اما'],
  ...['حيث', 'حين', 'عندما', 'بينما', 'مثل', 'كذلك', 'ايضا', 'كل', 'بعض', 'غير', 'ذا', 'ذو', 'ذي', 'ذات', 'يا', 'ايها'],
  ...['الذي', 'التي', 'الذين', 'اللذان', 'اللتان', 'اللذين', 'اللتين', 'اللاتي', 'اللواتي', 'اللايي'],
  ...['هذا', 'هذه', 'هذان', 'هذين', 'هولاء', 'ذلك', 'ذلكم', 'تلك', 'اوليك', 'هنا', 'هناك', 'هنالك', 'ثمه'],
  ...['هو', 'هي', 'هم', 'هما', 'هن', 'انا', 'نحن', 'انت', 'انتم', 'انتما', 'انتن'],
  ...['كان', 'كانت', 'كانوا', 'يكون', 'تكون', 'يكن'],
  ...['له', 'لها', 'لهم', 'لهن', 'لك', 'لكم', 'لنا', 'لي', 'به', 'بها', 'بهم', 'بكم', 'فيه', 'فيها', 'فيهم', 'فيكم'],
  ...['منه', 'منها', 'منهم', 'منكم', 'عنه', 'عنها', 'عنهم', 'عليه', 'عليها', 'عليهم', 'عليكم', 'اليه', 'اليها'],
  ...['اليهم', 'اليكم', 'معه', 'بما', 'لما', 'مما', 'عما', 'فيما', 'بهذا', 'لهذا', 'بذلك', 'لذلك'],
];

/** Question and function words in normalized form. */
export const STOP_WORDS: ReadonlySet<string> = new Set([...QUESTION_WORDS, ...FUNCTION_WORDS]);

/** True when a normalized word (optionally with a leading و or ف) carries no retrieval meaning. */
export function isStopWord(word: string): boolean {
  if (STOP_WORDS.has(word)) return true;
  return (word.startsWith('و') || word.startsWith('ف')) && STOP_WORDS.has(word.slice(1));
}

// الله with its clitics (والله، بالله، لله، تالله، اللهم); the article rule would otherwise leave "له".
const ALLAH = /^[وف]?(?:[بتك]?الله|لله)م?$/;
const ARTICLES = ['وال', 'بال', 'كال', 'فال', 'لل', 'ال'];
const SUFFIXES = ['ها', 'ان', 'ات', 'ون', 'ين', 'يه', 'ه', 'ي'];

/** Light10 stemming of a normalized word: و, then one article, then each suffix once, with length guards. */
export function lightStem(word: string): string {
  if (ALLAH.test(word)) return 'الله';
  let stem = word;
  if (stem.startsWith('و') && stem.length >= 4) stem = stem.slice(1);
  const article = ARTICLES.find((prefix) => stem.startsWith(prefix) && stem.length - prefix.length >= 2);
  if (article) stem = stem.slice(article.length);
  for (const suffix of SUFFIXES) {
    if (stem.endsWith(suffix) && stem.length - suffix.length >= 2) stem = stem.slice(0, -suffix.length);
  }
  return stem;
}

/** Index terms with offsets: normalized, stop-words and one-letter words removed, stemmed. */
export function analyzeTokens(text: string): AnalyzedToken[] {
  const terms: AnalyzedToken[] = [];
  for (const token of tokenize(text)) {
    if (token.word.length < 2 || isStopWord(token.word)) continue;
    terms.push({ term: lightStem(token.word), start: token.start, end: token.end });
  }
  return terms;
}

/** Index terms of a page text, in order, duplicates kept. */
export function analyze(text: string): string[] {
  return analyzeTokens(text).map((token) => token.term);
}

/** Terms of a query; identical to `analyze` so that queries and pages meet on the same terms. */
export function analyzeQuery(query: string): string[] {
  return analyze(query);
}
