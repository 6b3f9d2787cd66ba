import { passageBody, type PassageData } from './library-content-shapes.js';

/**
 * Wire shapes of the library's chat paths, in the chat-completions format the `openai`
 * SDK reads, plus the service's `library` block: `{hits, ai, sources}`. Links are built
 * from the request's base URL, as for retrieval.
 */

/** A passage as the chat sources carry it: the retrieval passage without the page text. */
export type ChatPassageData = Omit<PassageData, 'pageText'>;

export interface ChatSourceData {
  ref: number;
  passage: ChatPassageData;
}

export interface ChatUsageData {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

interface GroundingData {
  hits: number;
  ai: boolean;
  sources: ChatSourceData[];
}

/** `libraryChat` of the `LibraryChat` operation. */
export interface ChatCompletionData extends GroundingData {
  id: string;
  created: number;
  model: string;
  answer: string;
  finishReason: string;
  usage: ChatUsageData;
}

/** Events of the `libraryChatCompletion` stream (subgraphs/library/chat/chat-events.ts), as JSON. */
export type ChatEventData =
  | ({ type: 'start'; id: string; created: number; model: string } & GroundingData)
  | { type: 'delta'; content: string }
  | { type: 'finish'; finishReason: string; usage: ChatUsageData };

export interface ModelData {
  id: string;
  created: number;
  ownedBy: string;
}

/** A source: the seed's Passage fields, plus `ref`, the number the answer cites it by. */
export function sourceBody({ ref, passage }: ChatSourceData, base: string): Record<string, unknown> {
  return { ref, ...passageBody({ ...passage, pageText: null }, base), page: passage.page };
}

export function libraryBlock(grounding: GroundingData, base: string): Record<string, unknown> {
  return { hits: grounding.hits, ai: grounding.ai, sources: grounding.sources.map((source) => sourceBody(source, base)) };
}

export function usageBody(usage: ChatUsageData): Record<string, number> {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.totalTokens };
}

/** `POST /v1/chat/completions` without `stream`: one `chat.completion`. */
export function completionBody(completion: ChatCompletionData, base: string): Record<string, unknown> {
  return {
    id: completion.id,
    object: 'chat.completion',
    created: completion.created,
    model: completion.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: completion.answer, refusal: null },
        logprobs: null,
        finish_reason: completion.finishReason,
      },
    ],
    usage: usageBody(completion.usage),
    library: libraryBlock(completion, base),
  };
}

/**
 * The `chat.completion.chunk`s of one streamed completion: all with the `id` and
 * `created` of the start event; the first carries the role and the `library` block, the
 * last choice chunk the `finish_reason` and the `library` block again; with
 * `include_usage`, every chunk has `usage: null` but a last one with `choices: []` and
 * the usage, as OpenAI sends them.
 */
export function chunkEncoder(base: string, includeUsage: boolean): (event: unknown) => readonly unknown[] {
  let head: Record<string, unknown> = {};
  let library: Record<string, unknown> = {};
  const chunk = (choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}) => ({
    ...head,
    choices: choice ? [{ index: 0, ...choice }] : [],
    ...(includeUsage ? { usage: null } : {}),
    ...extra,
  });
  return (raw) => {
    const event = raw as ChatEventData;
    if (event.type === 'start') {
      head = { id: event.id, object: 'chat.completion.chunk', created: event.created, model: event.model };
      library = libraryBlock(event, base);
      return [chunk({ delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }, { library })];
    }
    if (event.type === 'delta') return [chunk({ delta: { content: event.content }, logprobs: null, finish_reason: null })];
    const last = chunk({ delta: {}, logprobs: null, finish_reason: event.finishReason }, { library });
    return includeUsage ? [last, chunk(null, { usage: usageBody(event.usage) })] : [last];
  };
}

/** `GET /v1/models`. */
export function modelsBody(models: readonly ModelData[]): Record<string, unknown> {
  return {
    object: 'list',
    data: models.map((model) => ({ id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy })),
  };
}
