import { describe, expect, it } from 'vitest';
import { parseChatRequest } from '../../../../subgraphs/library/chat/chat-request.js';
import { DomainError } from '../../../../contracts/errors.js';

const MODELS = ['library-rag', 'fake-llm'];

function problems(input: Parameters<typeof parseChatRequest>[0]): Array<{ field: string; message: string }> {
  try {
    parseChatRequest(input, MODELS);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(422);
    return [...((error as DomainError).details ?? [])];
  }
  throw new Error('expected a validation error');
}

describe('parseChatRequest', () => {
  it('defaults the model to library-rag and keeps the sampling options', () => {
    const request = parseChatRequest(
      { messages: [{ role: 'user', content: 'سؤال' }], temperature: 0.5, maxTokens: 10, stop: ['\n'] },
      MODELS,
    );
    expect(request).toEqual({
      model: 'library-rag',
      messages: [{ role: 'user', content: 'سؤال' }],
      sampling: {
        temperature: 0.5,
        maxTokens: 10,
        stop: ['\n'],
        topP: undefined,
        seed: undefined,
        presencePenalty: undefined,
        frequencyPenalty: undefined,
      },
    });
  });

  it('lists every problem with the wire names of the parameters', () => {
    expect(
      problems({
        model: 'gpt-9',
        messages: [{ role: 'user' }, { content: 'x' }, { role: 'robot', content: 'y' }],
        n: 3,
        topP: 2,
        maxTokens: 0,
      }).map((problem) => problem.field),
    ).toEqual(['model', 'messages[0].content', 'messages[1].role', 'messages[2].role', 'n', 'top_p', 'max_tokens']);
  });

  it('needs messages with a user question', () => {
    expect(problems({})).toEqual([{ field: 'messages', message: 'is required' }]);
    expect(problems({ messages: [] })[0]!.field).toBe('messages');
    expect(
      problems({
        messages: [
          { role: 'system', content: 'x' },
          { role: 'user', content: '  ' },
        ],
      }),
    ).toEqual([{ field: 'messages', message: 'must contain a user message with a question' }]);
  });
});
