import { ERROR_JSON, errors, integer, metered, object, string } from './path-builders.js';
import { rateLimitHeaders } from './library-components.js';

/** Path items of `POST /v1/chat/completions` and `GET /v1/models` (rest-facade/routes/library-chat.ts). */

const CHAT_REQUEST = object(
  {
    model: string('Model.', { default: 'library-rag' }),
    messages: {
      type: 'array',
      description: 'The conversation; content may also be an array of text parts.',
      items: object({ role: string('`system`, `user` or `assistant`.'), content: string('Message text.') }),
    },
    stream: {
      type: 'boolean',
      default: false,
      description: 'Stream `chat.completion.chunk` events (server-sent events, ending with `[DONE]`).',
    },
    temperature: { type: 'number' },
    top_p: { type: 'number' },
    max_tokens: { type: 'integer' },
    stop: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  },
  'Chat request in the chat-completions format; other fields of that format are accepted and ignored.',
);

const CHAT_RESPONSE = object(
  {
    id: string('Completion id.'),
    object: string('`chat.completion`.'),
    created: integer('Epoch seconds.'),
    model: string('Model.'),
    choices: {
      type: 'array',
      items: object({
        index: { type: 'integer' },
        message: object({ role: { type: 'string' }, content: { type: 'string' } }),
        finish_reason: { type: 'string' },
      }),
    },
    usage: object({ prompt_tokens: { type: 'integer' }, completion_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } }),
    library: object(
      {
        hits: integer('Matching passages.'),
        ai: { type: 'boolean', description: 'Whether a language model wrote the answer.' },
        sources: { type: 'array', items: { type: 'object' } },
      },
      'The library block: the sources the answer is built from.',
    ),
  },
  'Answer built only from library texts.',
);

const MODELS = object({
  object: string('`list`.'),
  data: {
    type: 'array',
    items: object({ id: { type: 'string' }, object: { type: 'string' }, created: { type: 'integer' }, owned_by: { type: 'string' } }),
  },
});

export const LIBRARY_CHAT_PATHS = {
  '/v1/chat/completions': {
    post: {
      tags: ['content'],
      operationId: 'chatCompletions',
      summary: 'Chat over library texts',
      description: 'Sources are returned in `library.sources`. With `stream=true` the answer comes as server-sent events.',
      requestBody: { required: true, content: { 'application/json': { schema: CHAT_REQUEST } } },
      responses: {
        '200': {
          description: 'The completion (or, streamed, its chunks).',
          headers: rateLimitHeaders(),
          content: { 'application/json': { schema: CHAT_RESPONSE }, 'text/event-stream': { schema: { type: 'string' } } },
        },
        ...errors({
          '422': { description: 'A body field of the wrong JSON type or out of range (`invalid_parameter`).', content: ERROR_JSON },
        }),
      },
    },
  },
  '/v1/models': metered('models', 'Available models', MODELS),
};
