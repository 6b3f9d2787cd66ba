/**
 * Arabic text analysis shared by indexing and querying: normalization (`normalize.ts`, with offsets
 * back into the original text), tokenization, stop-words, Light10-style light stemming and, beside
 * each stem, a root-level form (`roots.ts`).
 *
 * Pages and queries must go through the same functions so that their terms compare equal.
 */
import { normalizeSpans } from './normalize.js';
import { rootOf } from './roots.js';

export { normalizeArabic, normalizeWithOffsets, type NormalizedText } from './normalize.js';

/** A word of the normalized text; `start`/`end` are offsets in the text given to `tokenize`. */
export interface Token {
  word: string;
  start: number;
  end: number;
}

/** An index term (normalized, stemmed) and the root-level term beside it, with the offsets of the word they came from. */
export interface AnalyzedToken {
  term: string;
  root: string;
  start: number;
  end: number;
}

const WORD_UNIT = /^[\p{L}\p{N}\p{M}]$/u;
/** Per UTF-16 unit: 0 not yet known, 1 part of a word, 2 not (filled as units are met). */
const WORD_UNITS = new Uint8Array(0x10000);

/** Length (1 or 2 units) of the word character at `i`, or 0 when it is not one. */
function wordCharAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
    const pair = text.slice(i, i + 2);
    return WORD_UNIT.test(pair) ? 2 : 0;
  }
  let kind = WORD_UNITS[code]!;
  if (kind === 0) WORD_UNITS[code] = kind = WORD_UNIT.test(String.fromCharCode(code)) ? 1 : 2;
  return kind === 1 ? 1 : 0;
}

/** Calls `visit` with the bounds [first, end) of each word of a normalized text, in order. */
function eachWord(normalized: string, visit: (first: number, end: number) => void): void {
  let i = 0;
  while (i < normalized.length) {
    let size = wordCharAt(normalized, i);
    if (size === 0) {
      i += 1;
      continue;
    }
    const first = i;
    while (size > 0) {
      i += size;
      size = i < normalized.length ? wordCharAt(normalized, i) : 0;
    }
    visit(first, i);
  }
}

/** Words of the normalized text, each with its span in the original `text`. */
export function tokenize(text: string): Token[] {
  const { normalized, starts, ends } = normalizeSpans(text);
  const tokens: Token[] = [];
  eachWord(normalized, (first, end) => {
    tokens.push({ word: normalized.slice(first, end), start: starts[first] ?? 0, end: ends[end - 1] ?? text.length });
  });
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

/** A word's light stem and root, or null for a word that gives no term. */
type WordTerms = readonly [term: string, root: string] | null;

/** Words analysed so far: a library's vocabulary repeats, so most words are met again. */
const analysed = new Map<string, WordTerms>();
/** Words remembered at most; past that the memory starts again (a few tens of MB). */
const MAX_ANALYSED = 300_000;

/** The terms of one normalized word (the same whether remembered or not). */
function wordTerms(word: string): WordTerms {
  let found = analysed.get(word);
  if (found === undefined) {
    found = word.length < 2 || isStopWord(word) ? null : [lightStem(word), rootOf(word)];
    if (analysed.size >= MAX_ANALYSED) analysed.clear();
    analysed.set(word, found);
  }
  return found;
}

/** Index terms with offsets: normalized, stop-words and one-letter words removed, stemmed. */
export function analyzeTokens(text: string): AnalyzedToken[] {
  const terms: AnalyzedToken[] = [];
  for (const token of tokenize(text)) {
    const found = wordTerms(token.word);
    if (found !== null) terms.push({ term: found[0], root: found[1], start: token.start, end: token.end });
  }
  return terms;
}

/**
 * The words of a text whose light stem, or else whose root, is one of `terms`, each labelled with
 * the term it matched: `analyzeTokens` filtered, without building a token for every other word
 * (cutting a passage looks for a few terms in a whole page).
 */
export function matchingTokens(text: string, terms: ReadonlySet<string>): AnalyzedToken[] {
  const found: AnalyzedToken[] = [];
  if (terms.size === 0) return found;
  const { normalized, starts, ends } = normalizeSpans(text);
  eachWord(normalized, (first, end) => {
    const word = wordTerms(normalized.slice(first, end));
    if (word === null) return;
    const term = terms.has(word[0]) ? word[0] : terms.has(word[1]) ? word[1] : null;
    if (term !== null) found.push({ term, root: word[1], start: starts[first] ?? 0, end: ends[end - 1] ?? text.length });
  });
  return found;
}

/** Light-stem terms of a page text, in order, duplicates kept (its root terms are in `analyzeTokens`). */
export function analyze(text: string): string[] {
  return analyzeTokens(text).map((token) => token.term);
}

// Words that frame a question about the library's texts rather than ask about anything in them
// ("ما الدليل من القرآن الكريم على…", "اذكر آية…"); normalized, clitics and article included.
const QUESTION_FRAMING = new Set([
  'القران',
  'قران',
  'الكريم',
  'ايه',
  'الايه',
  'ايات',
  'الايات',
  'سوره',
  'السوره',
  'ذكر',
  'ورد',
  'معني',
  'اذكر',
  'دليل',
  'الدليل',
]);

/** Whether a query is a question: it holds a question word or ends with a question mark. */
function isQuestion(query: string, words: readonly Token[]): boolean {
  return /[؟?]\s*$/.test(query) || words.some((word) => QUESTION_WORDS.includes(word.word.replace(/^[وف]/, '')));
}

/** A word of a query: its light-stem term and its root term. */
export interface QueryWord {
  readonly term: string;
  readonly root: string;
}

/**
 * The distinct words of a query, analysed as pages are; in a question, the words that only frame it
 * are left out (unless `keepFraming`, for measuring what leaving them out is worth).
 */
export function analyzeQueryWords(query: string, keepFraming = false): QueryWord[] {
  const words = tokenize(query);
  const question = !keepFraming && isQuestion(query, words);
  const seen = new Map<string, QueryWord>();
  for (const word of words) {
    if (word.word.length < 2 || isStopWord(word.word)) continue;
    if (question && (QUESTION_FRAMING.has(word.word) || QUESTION_FRAMING.has(word.word.replace(/^[وف]/, '')))) continue;
    const term = lightStem(word.word);
    if (!seen.has(term)) seen.set(term, { term, root: rootOf(word.word) });
  }
  return [...seen.values()];
}

/** Light-stem terms of a query (distinct), meeting the pages' terms. */
export function analyzeQuery(query: string): string[] {
  return analyzeQueryWords(query).map((word) => word.term);
}
