import type { AnamnesisField } from '../../../contracts/research/case-types.js';
import type { AnamnesisUpdate } from './anamnesis.js';

/**
 * The offline assistant's reading of a message: labelled lines first (`Target users:
 * dentists`, `المستخدمون: أصحاب الكلاب`), then sentences sorted by cue words. Deterministic and modest by design: it
 * keeps the user's own words rather than inventing any.
 */

type TextField = Exclude<AnamnesisField, 'competitors'>;

const LABELS: ReadonlyArray<readonly [RegExp, AnamnesisField]> = [
  [/^(the )?(idea|product|concept|summary)$/, 'ideaSummary'],
  [/^(target )?(users?|audience|customers?|market|segment)$/, 'targetUsers'],
  [/^(the )?(problem|pain( point)?s?)$/, 'problem'],
  [/^(the )?(solution|how it works|product features?)$/, 'solution'],
  [/^(monetization|monetisation|pricing|business model|revenue( model)?)$/, 'monetization'],
  [/^(competitors?|competition|alternatives?)$/, 'competitors'],
  [/^(differentiation|unique value|advantage|usp|why us)$/, 'differentiation'],
  [/^(platforms?|channel)$/, 'platform'],
];

/**
 * Arabic labels, matched on the normalised label (see `arabicLabel`): with or without the
 * article, and the usual spellings — `المستخدمون`, `العملاء`, `الفئة المستهدفة`, `المشكلة` or
 * `المشكله`, `الحل` or `الحلول`, `الربح`, `نموذج الربح`, `الإيرادات`, …
 */
const ARABIC_LABELS: ReadonlyArray<readonly [RegExp, AnamnesisField]> = [
  [/^(ال)?(فكره|منتج|ملخص|فكره المشروع)$/, 'ideaSummary'],
  [
    /^(ال)?(مستخدم|مستخدمون|مستخدمين|عميل|عملاء|زبائن|جمهور|جمهور المستهدف|فئه المستهدفه|فئات المستهدفه|شريحه المستهدفه|سوق|سوق المستهدف)$/,
    'targetUsers',
  ],
  [/^(ال)?(مشكله|مشاكل|مشكلات)$/, 'problem'],
  [/^(ال)?(حل|حلول|حل المقترح)$/, 'solution'],
  [/^(ال)?(ربح|ارباح|ايرادات|دخل|تسعير|(نموذج|مصدر|مصادر|طريقه) (ال)?(ربح|عمل|ايرادات|دخل))$/, 'monetization'],
  [/^(ال)?(منافس|منافسون|منافسين|منافسه|بدائل)$/, 'competitors'],
  [/^(ال)?(ميزه|ميزه التنافسيه|تميز|ما يميزنا|قيمه المضافه)$/, 'differentiation'],
  [/^(ال)?(منصه|منصات|قناه)$/, 'platform'],
];

/** An Arabic label as `ARABIC_LABELS` spells it: no diacritics or tatweel, one alif, `ة` as `ه`, `ى` as `ي`. */
const arabicLabel = (label: string): string =>
  label
    .replace(/[\u064B-\u0652\u0670\u0640]/g, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي')
    .replace(/\s+/g, ' ')
    .trim();

const CUES: ReadonlyArray<readonly [RegExp, TextField]> = [
  [
    /\b(subscriptions?|subscribe|per (month|year|user)|monthly|yearly|freemium|advertis\w*|ads\b|commissions?|fees?|charge|pricing|price|one-time|premium|revenue)\b|\$\s?\d/i,
    'monetization',
  ],
  [/\b(problems?|struggle\w*|pain\w*|hard to|difficult|frustrat\w*|waste\w*|can(no|')t|too expensive|lack\w*|tedious)\b/i, 'problem'],
  [/\b(unlike|better than|only (one|app)|unique\w*|differen\w*|faster than|cheaper than)\b/i, 'differentiation'],
  [/\b(for|aimed at|targeting|target users|our users|customers are|users are)\b/i, 'targetUsers'],
  [/\b(app|platform|tool|service|helps?|lets?|allows?|automat\w*|matches|connects|tracks)\b/i, 'solution'],
];

const PLATFORMS = /\b(ios|iphone|ipad|android|web ?app|website|browser|desktop|mac(os)?|windows|chrome extension|slack)\b/gi;
const COMPETITOR_CUE = /\b(competitors?|compete[sd]? with|alternatives?|similar to|instead of|versus|vs\.?|like)\b/i;

const sentencesOf = (text: string): string[] =>
  text
    .split(/(?<=[.!?؟])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);

/** Capitalised names (and names in a list after a cue): `competitors are Calm, Headspace and Insight Timer`. */
function competitorNames(sentence: string): string[] {
  const cue = COMPETITOR_CUE.exec(sentence);
  if (!cue) return [];
  const tail = sentence.slice(cue.index + cue[0].length).replace(/^\s*(are|is|include|including|:)\s*/i, '');
  return tail
    .split(/,|\band\b|\bor\b|;/)
    .map((part) => part.replace(/[.!?)]+$/, '').trim())
    .filter((part) => /^[A-Z0-9][\w'’&.+ -]{0,40}$/.test(part) && part.split(' ').length <= 4);
}

function targetPhrase(sentence: string): string {
  const match =
    /\b(?:for|aimed at|targeting|target users are|our users are|customers are|users are)\s+(.+?)(?=\s+(?:to|who|that|so|with|by|in order)\b|[.;:!?]|$)/i.exec(
      sentence,
    );
  return (match?.[1] ?? sentence).trim();
}

function fieldOf(label: string): AnamnesisField | undefined {
  const latin = label.toLowerCase();
  const arabic = arabicLabel(label);
  return LABELS.find(([pattern]) => pattern.test(latin))?.[1] ?? ARABIC_LABELS.find(([pattern]) => pattern.test(arabic))?.[1];
}

function labelled(line: string, update: AnamnesisUpdate): boolean {
  const match = /^\s*(?:[-•*]\s*)?(\p{L}[\p{L}\p{M} ]{1,30}?)\s*[:：–-]\s*(.+)$/u.exec(line);
  if (!match) return false;
  const field = fieldOf(match[1]!.trim());
  if (!field) return false;
  const value = match[2]!.trim();
  if (field === 'competitors')
    update.competitors = value
      .split(/,|،|;|؛|\band\b/)
      .map((name) => name.trim())
      .filter(Boolean);
  else update[field] = value;
  return true;
}

export function extractFields(message: string, hasIdea: boolean): AnamnesisUpdate {
  const update: AnamnesisUpdate = {};
  const sentences = sentencesOf(message).filter((sentence) => !labelled(sentence, update));
  for (const sentence of sentences) {
    const names = competitorNames(sentence);
    if (names.length > 0) {
      update.competitors = [...(update.competitors ?? []), ...names];
      continue;
    }
    const field = CUES.find(([pattern]) => pattern.test(sentence))?.[1];
    if (field && update[field] === undefined) update[field] = field === 'targetUsers' ? targetPhrase(sentence) : sentence;
  }
  const platforms = [...new Set([...message.matchAll(PLATFORMS)].map((match) => match[0]))];
  if (update.platform === undefined && platforms.length > 0) update.platform = platforms.join(', ');
  // A greeting is not an idea: the first sentence counts only when it says something.
  const first = sentences.find((sentence) => sentence.split(/\s+/).length >= 4);
  if (!hasIdea && update.ideaSummary === undefined) update.ideaSummary = (update.solution as string | undefined) ?? first;
  return update;
}
