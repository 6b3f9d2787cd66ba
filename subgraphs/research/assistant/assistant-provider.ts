import type { AnamnesisData } from '../../../contracts/research/case-types.js';
import type { ProviderMeta } from '../llm/structured-completion.js';
import type { AnamnesisUpdate } from './anamnesis.js';

/**
 * Who writes the assistant's replies: any OpenAI-compatible LLM with structured output
 * when `LLM_BASE_URL` is set (live keys only), otherwise the built-in offline assistant,
 * which extracts fields from the user's own words and says that it is one.
 */

export interface TurnInput {
  readonly anamnesis: AnamnesisData;
  /** The case's messages so far, oldest first, the new user message last. */
  readonly history: ReadonlyArray<{ readonly role: 'user' | 'assistant'; readonly content: string }>;
}

export interface TurnResult {
  readonly reply: string;
  readonly update: AnamnesisUpdate;
  readonly meta: ProviderMeta;
}

export interface AssistantProvider {
  turn(input: TurnInput): Promise<TurnResult>;
}
