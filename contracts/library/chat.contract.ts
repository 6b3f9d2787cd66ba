import { z } from 'zod';
import { libraryKey } from '../access.js';
import { defineOperation } from '../operation.js';
import { LibraryChatCompletion, LibraryChatInput, LibraryModel } from './chat-types.js';
import {
  ChatCompletionWire,
  ChatRequestWire,
  chunkEncoder,
  completionBody,
  decodeChatBody,
  includeUsage,
  modelsBody,
  ModelsWire,
  wantsStream,
} from './chat-wire.js';
import { LibraryErrorCode } from './errors.js';

/** Chat over library texts (`/v1/chat/completions`, OpenAI-compatible) and its models (`/v1/models`). */

export const libraryChat = defineOperation({
  service: 'library',
  name: 'libraryChat',
  kind: 'mutation',
  summary: 'Chat completion over library texts',
  description:
    'Answers the conversation from library passages only, with the sources it cites in `library.sources`. `stream: true` answers with `chat.completion.chunk` server-sent events ending with `[DONE]`. Counts as a call.',
  tags: ['chat'],
  access: libraryKey('chat'),
  input: { body: { request: LibraryChatInput } },
  output: LibraryChatCompletion,
  rest: {
    method: 'POST',
    path: '/v1/chat/completions',
    bodyField: 'request',
    decode: decodeChatBody,
    request: ChatRequestWire,
    response: ChatCompletionWire,
    respond: (completion, request) => ({ body: completionBody(completion, request.baseUrl) }),
    stream: {
      operation: 'libraryChatCompletion',
      when: wantsStream,
      encoder: (request) => chunkEncoder(request.baseUrl, includeUsage(request.body)),
      done: '[DONE]',
    },
  },
  errors: [LibraryErrorCode.invalid_parameter, LibraryErrorCode.upstream_error, LibraryErrorCode.upstream_timeout],
});

export const libraryModels = defineOperation({
  service: 'library',
  name: 'libraryModels',
  kind: 'query',
  summary: 'Models a chat request may name',
  description: 'Counts as a call (operation `models`).',
  tags: ['chat'],
  access: libraryKey('models'),
  output: z.array(LibraryModel),
  rest: { method: 'GET', path: '/v1/models', response: ModelsWire, respond: (models) => ({ body: modelsBody(models) }) },
});
