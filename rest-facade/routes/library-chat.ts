import { FacadeError, type FacadeErrorDetail } from '../facade-error.js';
import type { RouteDefinition, RouteInput } from '../route.js';
import { chunkEncoder, completionBody, modelsBody, type ChatCompletionData, type ModelData } from './library-chat-shapes.js';

/**
 * `POST /v1/chat/completions` and `GET /v1/models` (seed 000, Chat). The JSON body is
 * mapped to the `LibraryChatInput` of GraphQL here — JSON types only, each wrong one a
 * 422 naming its parameter; the chat service checks the rest (required messages, roles,
 * ranges). Fields of the format the library has no use for (`tools`, `response_format`,
 * `logprobs`, `user`, `metadata`, …) are accepted and ignored.
 */

type Json = Record<string, unknown>;

const INT32 = 2_147_483_647;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

class BodyReader {
  readonly problems: FacadeErrorDetail[] = [];

  constructor(private readonly body: Json) {}

  private check<T>(field: string, ok: (value: unknown) => boolean, expected: string): T | null {
    const value = this.body[field];
    if (value === undefined || value === null) return null;
    if (ok(value)) return value as T;
    this.problems.push({ field, message: `must be ${expected}` });
    return null;
  }

  string = (field: string) => this.check<string>(field, (value) => typeof value === 'string', 'a string');
  number = (field: string) => this.check<number>(field, (value) => typeof value === 'number' && Number.isFinite(value), 'a number');
  boolean = (field: string) => this.check<boolean>(field, (value) => typeof value === 'boolean', 'true or false');
  integer = (field: string) =>
    this.check<number>(field, (value) => Number.isInteger(value) && Math.abs(value as number) <= INT32, `an integer of at most ${INT32}`);
}

/** Message content: a string, or an array of text parts (`[{type:"text", text}]`) joined by newlines. */
function contentOf(content: unknown, field: string, problems: FacadeErrorDetail[]): unknown {
  if (!Array.isArray(content)) return content ?? null;
  const texts = content.map((part) => (isObject(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : undefined));
  if (texts.every((text) => text !== undefined)) return texts.join('\n');
  problems.push({ field, message: 'only text content parts are supported' });
  return null;
}

function messagesOf(value: unknown, problems: FacadeErrorDetail[]): unknown[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    problems.push({ field: 'messages', message: 'must be an array of messages' });
    return null;
  }
  return value.map((item, index) => {
    if (!isObject(item)) return { role: null, content: null };
    const { role } = item;
    if (role !== undefined && role !== null && typeof role !== 'string')
      problems.push({ field: `messages[${index}].role`, message: 'must be a string' });
    const content = contentOf(item.content, `messages[${index}].content`, problems);
    if (content !== null && typeof content !== 'string')
      problems.push({ field: `messages[${index}].content`, message: 'must be a string' });
    return { role: typeof role === 'string' ? role : null, content: typeof content === 'string' ? content : null };
  });
}

/** `stop`: a string or up to four strings, always a list for GraphQL. */
function stopOf(value: unknown, problems: FacadeErrorDetail[]): string[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  problems.push({ field: 'stop', message: 'must be a string or an array of strings' });
  return null;
}

function bodyOf(input: RouteInput): Json {
  if (input.body === undefined) return {};
  if (isObject(input.body)) return input.body;
  throw new FacadeError(422, 'invalid_parameter', 'the body must be a JSON object', null, [
    { field: 'body', message: 'must be a JSON object' },
  ]);
}

/** The body's `stream_options.include_usage`. */
function includeUsage(body: Json): boolean {
  return isObject(body.stream_options) && body.stream_options.include_usage === true;
}

/** Body → `{request: LibraryChatInput}`, the variables of `LibraryChat` and of the `libraryChatCompletion` stream. */
export function chatVariables(input: RouteInput): Record<string, unknown> {
  const body = bodyOf(input);
  const read = new BodyReader(body);
  const { problems } = read;
  read.boolean('stream');
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (!isObject(body.stream_options)) problems.push({ field: 'stream_options', message: 'must be an object' });
    else if (body.stream_options.include_usage !== undefined && typeof body.stream_options.include_usage !== 'boolean') {
      problems.push({ field: 'stream_options.include_usage', message: 'must be true or false' });
    }
  }
  const request = {
    model: read.string('model'),
    messages: messagesOf(body.messages, problems),
    temperature: read.number('temperature'),
    topP: read.number('top_p'),
    maxTokens: read.integer('max_completion_tokens') ?? read.integer('max_tokens'),
    n: read.integer('n'),
    stop: stopOf(body.stop, problems),
    seed: read.integer('seed'),
    presencePenalty: read.number('presence_penalty'),
    frequencyPenalty: read.number('frequency_penalty'),
  };
  if (problems.length > 0) {
    const message = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    throw new FacadeError(422, 'invalid_parameter', message, problems[0]!.field, problems);
  }
  return { request };
}

export const libraryChatRoutes: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/v1/chat/completions',
    family: 'library',
    operation: 'LibraryChat',
    variables: chatVariables,
    stream: {
      operation: 'libraryChatCompletion',
      when: (input) => isObject(input.body) && input.body.stream === true,
      encoder: (input) => chunkEncoder(input.baseUrl, includeUsage(bodyOf(input))),
      done: '[DONE]',
    },
    respond: (data, input) => ({ body: completionBody(data.libraryChat as ChatCompletionData, input.baseUrl) }),
  },
  {
    method: 'GET',
    path: '/v1/models',
    family: 'library',
    operation: 'LibraryModels',
    respond: (data) => ({ body: modelsBody(data.libraryModels as ModelData[]) }),
  },
];
