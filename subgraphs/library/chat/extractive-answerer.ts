import { estimateTokens, estimateUsage, type Answerer, type AnswerPiece, type GroundedQuestion } from './answerer.js';
import type { FinishReason } from './chat-events.js';
import { termMatches, type Grounding } from './grounding.js';

/** How long an extractive answer may be. */
export const EXTRACTIVE = { sentences: 4, maxChars: 900, longSentence: 320 } as const;

interface Sentence {
  readonly ref: number;
  readonly position: number;
  readonly text: string;
  readonly distinct: number;
  readonly matches: number;
}

interface Span {
  readonly start: number;
  readonly end: number;
}

const SENTENCE_END = /(?<=[.!?؟۔])\s+|\n+/gu;
const CLAUSE_END = /(?<=[،؛;:])\s+/gu;

/** Pieces of `text` between `from` and `to` separated by `boundary`, trimmed, empty ones dropped. */
function split(text: string, from: number, to: number, boundary: RegExp): Span[] {
  const spans: Span[] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(text.charAt(start))) start += 1;
    while (end > start && /\s/.test(text.charAt(end - 1))) end -= 1;
    if (end > start) spans.push({ start, end });
  };
  let start = from;
  for (const match of text.slice(from, to).matchAll(boundary)) {
    push(start, from + match.index);
    start = from + match.index + match[0].length;
  }
  push(start, to);
  return spans;
}

/** Sentence spans of a passage; an over-long sentence is cut further at its commas and semicolons. */
export function sentenceSpans(text: string): Span[] {
  return split(text, 0, text.length, SENTENCE_END).flatMap((span) =>
    span.end - span.start <= EXTRACTIVE.longSentence ? [span] : split(text, span.start, span.end, CLAUSE_END),
  );
}

/** The sentences of a passage, whitespace collapsed. */
export function sentencesOf(text: string): string[] {
  return sentenceSpans(text).map((span) => text.slice(span.start, span.end).replace(/\s+/g, ' '));
}

/** Scores each sentence by the query-term matches inside it (analysed once, by the grounding). */
function scored(grounding: Grounding): Sentence[] {
  const terms = new Set(grounding.terms);
  return grounding.sources.flatMap((source, index) => {
    const { text } = source.passage;
    const matches = grounding.matches[index] ?? termMatches(text, terms);
    return sentenceSpans(text).map((span, position) => {
      const inside = matches.filter((match) => match.start >= span.start && match.start < span.end);
      const sentence = text.slice(span.start, span.end).replace(/\s+/g, ' ');
      return {
        ref: source.ref,
        position,
        text: sentence,
        distinct: new Set(inside.map((match) => match.term)).size,
        matches: inside.length,
      };
    });
  });
}

/**
 * The best sentences (most distinct query terms, then most matches, then best source), within the
 * length bounds; a sentence with less than half the terms of the best one (a heading naming one of
 * them) is left out.
 */
function select(sentences: readonly Sentence[]): Sentence[] {
  const best = Math.max(0, ...sentences.map((sentence) => sentence.distinct));
  const needed = Math.max(1, Math.ceil(best / 2));
  const ranked = sentences
    .filter((sentence) => sentence.distinct >= needed)
    .sort((a, b) => b.distinct - a.distinct || b.matches - a.matches || a.ref - b.ref || a.position - b.position);
  const chosen: Sentence[] = [];
  let chars = 0;
  for (const sentence of ranked) {
    if (chosen.length === EXTRACTIVE.sentences) break;
    if (chosen.length > 0 && chars + sentence.text.length > EXTRACTIVE.maxChars) continue;
    chosen.push(sentence);
    chars += sentence.text.length;
  }
  // Relevant sources always hold a matching sentence; the fallback only guards odd text.
  if (chosen.length === 0 && sentences[0]) chosen.push(sentences[0]);
  return chosen.sort((a, b) => a.ref - b.ref || a.position - b.position);
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
 * The extractive answer: the most relevant sentences of the top passages, in source and
 * text order, each run of sentences from one source followed by its marker (`[2]`).
 * `maxTokens` cuts it short (finish reason `length`).
 */
export function extractAnswer(grounding: Grounding, maxTokens?: number): ExtractiveAnswer {
  const chosen = select(scored(grounding));
  const segments: string[] = [];
  let used = 0;
  for (const [index, sentence] of chosen.entries()) {
    const closesRun = chosen[index + 1]?.ref !== sentence.ref;
    const text = `${index > 0 ? ' ' : ''}${sentence.text}${closesRun ? ` [${sentence.ref}]` : ''}`;
    const tokens = estimateTokens(text);
    if (maxTokens !== undefined && used + tokens > maxTokens) {
      const rest = truncate(text.trim(), maxTokens - used);
      if (rest) segments.push(`${index > 0 ? ' ' : ''}${rest}`);
      return { segments, finishReason: 'length' };
    }
    segments.push(text);
    used += tokens;
  }
  return { segments, finishReason: 'stop' };
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
