import type { ChatUsage, FinishReason } from './chat-events.js';
import type { ChatRequest } from './chat-request.js';
import type { Grounding } from './grounding.js';

/** A piece of an answer: text as it is produced, then one end. */
export type AnswerPiece =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'end'; readonly finishReason: FinishReason; readonly usage: ChatUsage | null };

/** A question with the passages it may be answered from. */
export interface GroundedQuestion {
  readonly request: ChatRequest;
  readonly grounding: Grounding;
}

/**
 * Writes an answer from the grounding's passages only. `start` resolves once the answer
 * is under way (an upstream accepted the request), so a failure to start is still an
 * ordinary error; the pieces then come as they are produced, until `signal` stops them.
 */
export interface Answerer {
  /** Whether a language model writes the answers (`library.ai`). */
  readonly ai: boolean;
  start(question: GroundedQuestion, signal: AbortSignal): Promise<AsyncIterable<AnswerPiece>>;
}

const TOKEN = /[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]/gu;

/** A token count estimate where no tokenizer reports one: words and punctuation marks. */
export function estimateTokens(text: string): number {
  return text.match(TOKEN)?.length ?? 0;
}

export function estimateUsage(prompt: readonly string[], completion: string): ChatUsage {
  const promptTokens = prompt.reduce((sum, text) => sum + estimateTokens(text), 0);
  const completionTokens = estimateTokens(completion);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
