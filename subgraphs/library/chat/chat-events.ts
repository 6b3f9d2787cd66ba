import type { RetrievedPassage } from '../search/retrieval.service.js';

export type FinishReason = 'stop' | 'length' | 'content_filter';

export interface ChatUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

/** A passage the answer may cite: the answer's `[ref]` markers point at it. */
export interface ChatSource {
  readonly ref: number;
  readonly passage: RetrievedPassage;
}

/** What grounded an answer, sent with its first event. */
export interface ChatGroundingFacts {
  /** Pages matching the retrieval query in the whole index (as `/v1/retrieve` counts them). */
  readonly hits: number;
  /** Whether a language model wrote the answer (false: extractive, or nothing relevant was found). */
  readonly ai: boolean;
  readonly sources: readonly ChatSource[];
}

/**
 * One chat completion as a sequence of typed events: `start` (identity and grounding)
 * once, `delta`s of answer text as they come, `finish` once. Transports (SSE, NDJSON,
 * a GraphQL result) are built from these by others.
 */
export type ChatEvent =
  | ({ readonly type: 'start'; readonly id: string; readonly created: number; readonly model: string } & ChatGroundingFacts)
  | { readonly type: 'delta'; readonly content: string }
  | { readonly type: 'finish'; readonly finishReason: FinishReason; readonly usage: ChatUsage };

/** A whole completion, as the non-streamed form returns it. */
export interface ChatCompletion extends ChatGroundingFacts {
  readonly id: string;
  readonly created: number;
  readonly model: string;
  readonly answer: string;
  readonly finishReason: FinishReason;
  readonly usage: ChatUsage;
}

/** Folds the events of one completion into the completion. */
export async function collectCompletion(events: AsyncIterable<ChatEvent>): Promise<ChatCompletion> {
  let start: Extract<ChatEvent, { type: 'start' }> | undefined;
  let finish: Extract<ChatEvent, { type: 'finish' }> | undefined;
  const parts: string[] = [];
  for await (const event of events) {
    if (event.type === 'start') start = event;
    else if (event.type === 'delta') parts.push(event.content);
    else finish = event;
  }
  if (!start || !finish) throw new Error('a chat completion ended without its start or finish event');
  const { type: _type, ...identity } = start;
  return { ...identity, answer: parts.join(''), finishReason: finish.finishReason, usage: finish.usage };
}
