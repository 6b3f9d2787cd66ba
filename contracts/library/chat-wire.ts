import { z } from 'zod';
import type { InputIssue } from '../input.js';
import type { LibraryChatCompletionData } from './chat-types.js';
import { passageBody, PassageWire } from './content-wire.js';

/**
 * The chat paths in the chat-completions format the `openai` SDK reads, plus the
 * service's `library` block `{hits, ai, sources}`; and how that format's request body
 * becomes the GraphQL `LibraryChatInput`.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export const ChatRequestWire = z
  .object({
    model: z.string().default('library-rag'),
    messages: z
      .array(z.object({ role: z.string().describe('`system`, `user` or `assistant`.'), content: z.string().describe('Message text.') }))
      .describe('The conversation; content may also be an array of text parts.'),
    stream: z.boolean().default(false).describe('Stream `chat.completion.chunk` events (server-sent events, ending with `[DONE]`).'),
    stream_options: z.object({ include_usage: z.boolean() }).optional(),
    temperature: z.number().optional(),
    top_p: z.number().optional(),
    max_tokens: z.int().optional(),
    max_completion_tokens: z.int().optional(),
    n: z.int().optional(),
    stop: z.union([z.string(), z.array(z.string())]).optional(),
    seed: z.int().optional(),
    presence_penalty: z.number().optional(),
    frequency_penalty: z.number().optional(),
  })
  .meta({
    id: 'ChatRequest',
    description: 'Chat request in the chat-completions format; other fields of that format are accepted and ignored.',
    additionalProperties: true,
  });

const ChatUsageWire = z.object({ prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() });
const SourceWire = PassageWire.omit({ page_text: true })
  .extend({ ref: z.int().describe('The `[n]` the answer cites it by.'), page: z.int() })
  .meta({ id: 'ChatSource' });
const LibraryBlockWire = z
  .object({ hits: z.int(), ai: z.boolean().describe('Whether a language model wrote the answer.'), sources: z.array(SourceWire) })
  .meta({ id: 'LibraryBlock', description: 'The service-specific block: the sources the answer may cite.' });

export const ChatCompletionWire = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.int().describe('Epoch seconds.'),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.int(),
        message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
        logprobs: z.null(),
        finish_reason: z.string(),
      }),
    ),
    usage: ChatUsageWire,
    library: LibraryBlockWire,
  })
  .meta({ id: 'ChatCompletion' });

export const ModelsWire = z
  .object({
    object: z.literal('list'),
    data: z.array(z.object({ id: z.string(), object: z.literal('model'), created: z.int(), owned_by: z.string() })),
  })
  .meta({ id: 'ModelList' });

type Grounding = Pick<LibraryChatCompletionData, 'hits' | 'ai' | 'sources'>;
type Usage = LibraryChatCompletionData['usage'];

/** Events of the `libraryChatCompletion` stream (subgraphs/library/chat/chat-events.ts), as JSON. */
type ChatEventData =
  | ({ type: 'start'; id: string; created: number; model: string } & Grounding)
  | { type: 'delta'; content: string }
  | { type: 'finish'; finishReason: string; usage: Usage };

const libraryBlock = (grounding: Grounding, base: string) => ({
  hits: grounding.hits,
  ai: grounding.ai,
  sources: grounding.sources.map(({ ref, passage }) => ({ ref, ...passageBody({ ...passage, pageText: null }, base), page: passage.page })),
});

const usageBody = (usage: Usage) => ({
  prompt_tokens: usage.promptTokens,
  completion_tokens: usage.completionTokens,
  total_tokens: usage.totalTokens,
});

/** `POST /v1/chat/completions` without `stream`: one `chat.completion`. */
export const completionBody = (completion: LibraryChatCompletionData, base: string): z.input<typeof ChatCompletionWire> => ({
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
});

/**
 * The `chat.completion.chunk`s of one streamed completion: all with the `id` and
 * `created` of the start event; the first carries the role and the `library` block, the
 * last choice chunk the `finish_reason` and the `library` block again; with
 * `include_usage`, every chunk has `usage: null` but a last one with `choices: []` and
 * the usage, as OpenAI sends them.
 */
export function chunkEncoder(base: string, includeUsage: boolean): (event: unknown) => readonly unknown[] {
  let head: Json = {};
  let library: Json = {};
  const chunk = (choice: Json | null, extra: Json = {}) => ({
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
export const modelsBody = (models: ReadonlyArray<{ id: string; created: number; ownedBy: string }>): z.input<typeof ModelsWire> => ({
  object: 'list',
  data: models.map((model) => ({ id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy })),
});

/** Whether a request asks for the stream. */
export const wantsStream = (body: unknown) => isObject(body) && body.stream === true;

/** The body's `stream_options.include_usage`. */
export const includeUsage = (body: unknown) =>
  isObject(body) && isObject(body.stream_options) && body.stream_options.include_usage === true;

const bodyIssue = (path: Array<string | number>, message: string, input: unknown): InputIssue => ({
  location: 'body',
  path,
  code: 'invalid_type',
  message,
  input,
});

/** Message content: a string, or an array of text parts (`[{type:"text", text}]`) joined by newlines. */
function contentOf(content: unknown, index: number, problems: InputIssue[]): unknown {
  if (!Array.isArray(content)) return content;
  const texts = content.map((part) => (isObject(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : undefined));
  if (texts.every((text) => text !== undefined)) return texts.join('\n');
  problems.push(bodyIssue(['messages', index, 'content'], 'only text content parts are supported', content));
  return null;
}

/**
 * The chat-completions body → `LibraryChatInput`: camelCase names, `max_completion_tokens`
 * for `max_tokens`, text parts joined, `stop` as a list; `stream` and `stream_options`
 * are the transport's and only checked. Fields of the format the library has no use for
 * are dropped.
 */
export function decodeChatBody(body: unknown, problems: InputIssue[]): unknown {
  if (body === undefined) return {};
  if (!isObject(body)) {
    problems.push({ location: 'body', path: [], code: 'invalid_type', message: 'the body must be a JSON object', input: body });
    return {};
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    problems.push(bodyIssue(['stream'], 'must be true or false', body.stream));
  }
  const options = body.stream_options;
  if (options !== undefined && options !== null) {
    if (!isObject(options)) problems.push(bodyIssue(['stream_options'], 'must be an object', options));
    else if (options.include_usage !== undefined && typeof options.include_usage !== 'boolean') {
      problems.push(bodyIssue(['stream_options', 'include_usage'], 'must be true or false', options.include_usage));
    }
  }
  const messages = Array.isArray(body.messages)
    ? body.messages.map((item, index) =>
        isObject(item)
          ? { role: item.role ?? null, content: contentOf(item.content, index, problems) ?? null }
          : { role: null, content: null },
      )
    : body.messages;
  return {
    model: body.model,
    messages,
    temperature: body.temperature,
    topP: body.top_p,
    maxTokens: body.max_completion_tokens ?? body.max_tokens,
    n: body.n,
    stop: typeof body.stop === 'string' ? [body.stop] : body.stop,
    seed: body.seed,
    presencePenalty: body.presence_penalty,
    frequencyPenalty: body.frequency_penalty,
  };
}
