import { z } from 'zod';
import { LibraryPassage } from './content-types.js';
import { lib } from './fields.js';

/** GraphQL types of chat completions; the REST bodies (OpenAI-compatible) are in `chat-wire.ts`. */

export const LibraryChatMessageInput = z
  .object({
    role: lib.string().nullish().describe('`system`, `developer`, `user`, `assistant` or `tool`.'),
    content: lib.string().nullish(),
  })
  .meta({
    id: 'LibraryChatMessageInput',
    description: 'One message of the conversation; both fields are required (checked by the service, which names the one missing).',
  });

/**
 * The chat request. Its JSON types are checked here; the rules that depend on the
 * configured models or span fields (known model, a user question, ranges listed
 * together) are the chat service's, so every problem is reported at once.
 */
export const LibraryChatInput = z
  .object({
    model: lib.string().nullish().describe('Defaults to `library-rag`; see `libraryModels`.'),
    messages: z.array(LibraryChatMessageInput, { error: 'must be an array of messages' }).nullish(),
    temperature: lib.number().nullish().describe('0–2; passed to an LLM upstream.'),
    topP: lib.number().nullish().describe('0–1; passed to an LLM upstream.'),
    maxTokens: lib.int32().nullish().describe('Longest answer in tokens (estimated for extractive answers).'),
    n: lib.int32().nullish().describe('Choices to return; only 1 is supported.'),
    stop: z
      .array(z.string(), { error: 'must be a string or an array of strings' })
      .nullish()
      .describe('Up to 4 stop sequences; passed to an LLM upstream.'),
    seed: lib.int32().nullish(),
    presencePenalty: lib.number().nullish(),
    frequencyPenalty: lib.number().nullish(),
  })
  .meta({ id: 'LibraryChatInput', description: 'A chat request in the chat-completions format (camelCase); `messages` is required.' });

const LibraryChatUsage = z
  .object({ promptTokens: z.int(), completionTokens: z.int(), totalTokens: z.int() })
  .meta({ id: 'LibraryChatUsage', description: 'Token counts; estimated (words and punctuation) unless an LLM upstream reported them.' });

const LibraryChatSource = z
  .object({ ref: z.int().describe('The number of the `[n]` markers in the answer.'), passage: LibraryPassage })
  .meta({ id: 'LibraryChatSource', description: 'A passage the answer may cite; the answer refers to it as `[ref]`.' });

export const LibraryChatCompletion = z
  .object({
    id: z.string(),
    created: z.int().describe('Epoch seconds.'),
    model: z.string(),
    answer: z.string().describe('The answer, with `[n]` markers pointing at `sources`.'),
    finishReason: z.string().describe('`stop`, `length` or `content_filter`.'),
    usage: LibraryChatUsage,
    hits: z.int().describe('Pages matching the retrieval query in the whole index.'),
    ai: z.boolean().describe('Whether a language model wrote the answer.'),
    sources: z.array(LibraryChatSource),
  })
  .meta({ id: 'LibraryChatCompletion', description: 'A chat completion grounded only in library passages.' });

export const LibraryModel = z
  .object({ id: z.string(), created: z.int().describe('Epoch seconds.'), ownedBy: z.string() })
  .meta({ id: 'LibraryModel', description: 'A model a chat request may name.' });

export type LibraryChatInputData = z.output<typeof LibraryChatInput>;
export type LibraryChatCompletionData = z.output<typeof LibraryChatCompletion>;
