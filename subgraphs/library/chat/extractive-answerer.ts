import { isSentenceEnd, isSentenceStart, sentenceSpans, type Span } from '../analysis/sentences.js';
import type { RetrievedPassage } from '../search/retrieval.service.js';
import { estimateTokens, estimateUsage, type Answerer, type AnswerPiece, type GroundedQuestion } from './answerer.js';
import type { FinishReason } from './chat-events.js';
import { termMatches, type Grounding } from './grounding.js';

/** How long an extractive answer may be: sentences in all, from one source at most, characters. */
export const EXTRACTIVE = { sentences: 4, perSource: 2, maxChars: 900 } as const;

/** A sentence or verse of a source, with the query terms it holds. */
interface Unit {
  readonly ref: number;
  readonly position: number;
  readonly text: string;
  /** Cut short by the passage's edge: quoted only when nothing whole answers. */
  readonly partial: boolean;
  readonly terms: ReadonlySet<string>;
  readonly matches: number;
  score: number;
}

/** Whether a span of the passage is a whole sentence of the page, judged on the page text when the passage carries it. */
function whole(passage: RetrievedPassage, span: Span): boolean {
  const page = passage.pageText;
  if (page !== null) return isSentenceStart(page, passage.start + span.start) && isSentenceEnd(page, passage.start + span.end);
  const atPageEnd = passage.start + passage.length >= passage.pageChars;
  // Without the page, only what the passage itself shows: its start at the page's start, its end closed by punctuation.
  const startsWhole = span.start > 0 || passage.start === 0;
  return startsWhole && isSentenceEnd(atPageEnd ? passage.text : `${passage.text} …`, span.end);
}

/** The sentences and verses of each source, with their matches (analysed once, by the grounding). */
function unitsOf(grounding: Grounding): Unit[] {
  const terms = new Set(grounding.terms);
  return grounding.sources.flatMap((source, index) => {
    const { text } = source.passage;
    const matches = grounding.matches[index] ?? termMatches(text, terms);
    const spans = sentenceSpans(text);
    return spans.map((span, position) => {
      const inside = matches.filter((match) => match.start >= span.start && match.start < span.end);
      return {
        ref: source.ref,
        position,
        text: text.slice(span.start, span.end).replace(/\s+/g, ' '),
        partial: (position === 0 || position === spans.length - 1) && !whole(source.passage, span),
        terms: new Set(inside.map((match) => match.term)),
        matches: inside.length,
        score: 0,
      };
    });
  });
}

/**
 * Scores each unit by the query terms it holds, each weighted by how few of the units hold it (a
 * term on every line of the passages, الله in a question about the Qur'an, says little), then by
 * the number of matches.
 */
function score(units: Unit[], terms: readonly string[]): void {
  const holding = (term: string) => units.filter((unit) => unit.terms.has(term)).length;
  const weights = new Map(terms.map((term) => [term, Math.log(1 + units.length / (1 + holding(term)))]));
  for (const unit of units) {
    let score = 0;
    for (const term of unit.terms) score += weights.get(term) ?? 0;
    unit.score = score + 0.01 * Math.min(unit.matches, 5);
  }
}

const better = (a: Unit, b: Unit) => b.score - a.score || a.ref - b.ref || a.position - b.position;

/**
 * The answer's units: whole ones first (fragments only when no whole unit holds a query term), at
 * least half as relevant as the best; first the best of each source, for an answer drawn from
 * several, then the best of the rest; within the length bounds; in source and text order.
 */
function select(units: readonly Unit[]): Unit[] {
  const matching = units.filter((unit) => unit.terms.size > 0);
  const wholeUnits = matching.filter((unit) => !unit.partial);
  const pool = (wholeUnits.length > 0 ? wholeUnits : matching).sort(better);
  const best = pool[0]?.score ?? 0;
  const ranked = pool.filter((unit) => unit.score >= best / 2);
  const chosen: Unit[] = [];
  const perSource = new Map<number, number>();
  let chars = 0;
  const take = (unit: Unit, cap: number) => {
    if (chosen.length === EXTRACTIVE.sentences || chosen.includes(unit) || (perSource.get(unit.ref) ?? 0) >= cap) return;
    if (chosen.length > 0 && chars + unit.text.length > EXTRACTIVE.maxChars) return;
    chosen.push(unit);
    perSource.set(unit.ref, (perSource.get(unit.ref) ?? 0) + 1);
    chars += unit.text.length;
  };
  for (const unit of ranked) take(unit, 1);
  for (const unit of ranked) take(unit, EXTRACTIVE.perSource);
  return chosen.sort((a, b) => a.ref - b.ref || a.position - b.position);
}

/** Whether a sentence ends with its own punctuation (or verse number). */
function closed(text: string): boolean {
  return isSentenceEnd(`${text} …`, text.length);
}

/** The text of a unit as quoted: a fragment marked where the passage cut it. */
function quoted(unit: Unit, units: readonly Unit[]): string {
  if (!unit.partial) return unit.text;
  const last = units.filter((other) => other.ref === unit.ref).length - 1;
  return unit.position === 0 && last > 0 ? `…${unit.text}` : `${unit.text}…`;
}

/** Words of `text` that fit in `tokens` estimated tokens. */
function truncate(text: string, tokens: number): string {
  const words = text.split(' ');
  let kept = '';
  for (const word of words) {
    const next = kept ? `${kept} ${word}` : word;
    if (estimateTokens(next) > tokens) break;
    kept = next;
  }
  return kept;
}

export interface ExtractiveAnswer {
  /** Pieces of the answer in order; joined, they are the answer. */
  readonly segments: readonly string[];
  readonly finishReason: FinishReason;
}

/**
 * The extractive answer: the whole sentences and verses of the top passages that best match the
 * question, from several passages, in source and text order, each run of sentences from one source
 * followed by its marker (`[2]`); a source none of whose sentences is quoted is not cited.
 * `maxTokens` cuts it short (finish reason `length`).
 */
export function extractAnswer(grounding: Grounding, maxTokens?: number): ExtractiveAnswer {
  const units = unitsOf(grounding);
  score(units, grounding.terms);
  const chosen = select(units);
  const segments: string[] = [];
  let used = 0;
  for (const [index, unit] of chosen.entries()) {
    const closesRun = chosen[index + 1]?.ref !== unit.ref;
    // A sentence that ended at a line break in its source keeps one, so it does not run into the next.
    const separator = index === 0 ? '' : chosen[index - 1]!.ref === unit.ref && !closed(chosen[index - 1]!.text) ? '\n' : ' ';
    const text = `${separator}${quoted(unit, units)}${closesRun ? ` [${unit.ref}]` : ''}`;
    const tokens = estimateTokens(text);
    if (maxTokens !== undefined && used + tokens > maxTokens) {
      const rest = truncate(text.trim(), maxTokens - used);
      if (rest) segments.push(`${separator}${rest}`);
      return { segments, finishReason: 'length' };
    }
    segments.push(text);
    used += tokens;
  }
  return { segments, finishReason: 'stop' };
}

/** The sentences and verses of a passage, whitespace collapsed. */
export function sentencesOf(text: string): string[] {
  return sentenceSpans(text).map((span) => text.slice(span.start, span.end).replace(/\s+/g, ' '));
}

/** The default answerer (no LLM configured): sentences of the passages themselves, streamed one by one. */
export class ExtractiveAnswerer implements Answerer {
  readonly ai = false;

  async start(question: GroundedQuestion): Promise<AsyncIterable<AnswerPiece>> {
    const answer = extractAnswer(question.grounding, question.request.sampling.maxTokens);
    const usage = estimateUsage(
      question.request.messages.map((message) => message.content),
      answer.segments.join(''),
    );
    return (async function* (): AsyncGenerator<AnswerPiece> {
      for (const text of answer.segments) yield { kind: 'text', text };
      yield { kind: 'end', finishReason: answer.finishReason, usage };
    })();
  }
}

/** The whole answer when no passage is relevant: said plainly, in Arabic and English. */
export const NOT_FOUND_ANSWER = 'لم أجد في نصوص المكتبة ما يجيب عن هذا السؤال. (No passage in the library texts answers this question.)';

/** Answers "not found" without asking anyone: an answer must come from passages, and there are none. */
export class NotFoundAnswerer implements Answerer {
  readonly ai = false;

  async start(question: GroundedQuestion): Promise<AsyncIterable<AnswerPiece>> {
    const usage = estimateUsage(
      question.request.messages.map((message) => message.content),
      NOT_FOUND_ANSWER,
    );
    return (async function* (): AsyncGenerator<AnswerPiece> {
      yield { kind: 'text', text: NOT_FOUND_ANSWER };
      yield { kind: 'end', finishReason: 'stop', usage };
    })();
  }
}
