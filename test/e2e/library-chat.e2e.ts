import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FOUND_ANSWER } from '../../subgraphs/library/chat/extractive-answerer.js';
import { ADMIN_TOKEN, adminKey, adminPost, json, RATE_LIMIT_HEADERS } from '../support/library-keys.js';
import { adminImport } from '../support/library-stack.js';
import { startStack, type TestStack } from '../support/stack.js';

/** Issue 5: `/v1/chat/completions` and `/v1/models` with the extractive answerer (no LLM configured), through the `openai` SDK. */

const BOOK = '0280.IbnTayfur.Baghdad';
/** Answered on the book's first page: the day al-Ma'mun entered Baghdad from Khurasan. */
const QUESTION = 'متى كان دخول المأمون بغداد مقدمه من خراسان؟';

interface LibraryBlock {
  hits: number;
  ai: boolean;
  sources: Array<{
    ref: number;
    id: string;
    page_id: string;
    book_id: string;
    book: string;
    part: string;
    text: string;
    score: number;
    url: string;
  }>;
}
type WithLibrary<T> = T & { library: LibraryBlock };

let stack: TestStack;
let client: OpenAI;
let key: string;

beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN });
  expect((await adminImport(stack, 'openiti')).status).toBe(200);
  // A free key from registration, as an integrator gets one; raised to unlimited so the suite fits in its minute.
  const registered = await stack.fetch('/v1/register', json({ email: 'chat-client@example.org' }));
  expect(registered.status).toBe(201);
  const issued = (await registered.json()) as { id: number; key: string };
  key = issued.key;
  expect((await adminPost(stack, `/admin/keys/${issued.id}/plan`, { plan: 'unlimited' })).status).toBe(200);
  client = new OpenAI({ apiKey: key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

const ask = (content: string) => [{ role: 'user' as const, content }];

describe('GET /v1/models', () => {
  it('lists library-rag in the OpenAI list format', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    expect(models).toEqual([{ id: 'library-rag', object: 'model', created: expect.any(Number), owned_by: 'qantara-library' }]);
  });
});

describe('POST /v1/chat/completions (extractive)', () => {
  it('answers from the imported OpenITI page that holds the answer and cites it', async () => {
    const { data, response } = await client.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION) }).withResponse();
    const completion = data as WithLibrary<typeof data>;
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'library-rag',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant' } }],
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.library.ai).toBe(false);
    expect(completion.library.hits).toBeGreaterThan(0);
    const cited = completion.library.sources.find((source) => source.id === `${BOOK}-1`);
    expect(cited).toMatchObject({
      page_id: `${BOOK}-1`,
      book_id: BOOK,
      book: 'كتاب بغداد',
      url: `${stack.url}/v1/page?id=${encodeURIComponent(`${BOOK}-1`)}`,
    });
    expect(cited!.text).toContain('خراسان');
    const answer = completion.choices[0]!.message.content!;
    expect(answer).toContain('سنة أربع ومائتين');
    expect(answer).toContain(`[${cited!.ref}]`);
    expect(completion.library.sources.map((source) => source.ref)).toEqual(completion.library.sources.map((_, index) => index + 1));
    expect(completion.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers.get(header), header).not.toBeNull();
  });

  it('streams chunks with one id and created, library on the first and last, usage chunk, then [DONE] (create stream: true)', async () => {
    const plain = await client.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION) });
    const stream = await client.chat.completions.create({
      model: 'library-rag',
      messages: ask(QUESTION),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: Array<WithLibrary<OpenAI.ChatCompletionChunk>> = [];
    for await (const chunk of stream) chunks.push(chunk as WithLibrary<OpenAI.ChatCompletionChunk>);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(new Set(chunks.map((chunk) => chunk.created)).size).toBe(1);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'library-rag')).toBe(true);
    const [first] = chunks;
    expect(first!.choices[0]!.delta.role).toBe('assistant');
    expect(first!.library.sources.map((source) => source.id)).toEqual(
      (plain as WithLibrary<typeof plain>).library.sources.map((source) => source.id),
    );
    const usage = chunks.at(-1)!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual(plain.usage);
    const last = chunks.at(-2)!;
    expect(last.choices[0]!.finish_reason).toBe('stop');
    expect(last.library).toEqual(first!.library);
    expect(chunks.slice(0, -2).every((chunk) => chunk.choices[0]!.finish_reason === null)).toBe(true);
    const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(content).toBe(plain.choices[0]!.message.content);
    expect(chunks.length).toBeGreaterThan(3);
  });

  it('gives the same answer and library block through chat.completions.stream(...).finalChatCompletion()', async () => {
    const plain = (await client.chat.completions.create({
      model: 'library-rag',
      messages: ask(QUESTION),
    })) as WithLibrary<OpenAI.ChatCompletion>;
    const final = (await client.chat.completions
      .stream({ model: 'library-rag', messages: ask(QUESTION) })
      .finalChatCompletion()) as unknown as WithLibrary<OpenAI.ChatCompletion>;
    expect(final.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
    expect(final.choices[0]!.finish_reason).toBe('stop');
    expect(final.library).toEqual(plain.library);
  });

  it('sends text/event-stream unbuffered, with the rate-limit headers, ending in data: [DONE], model library-rag by default', async () => {
    const response = await stack.fetch(
      '/v1/chat/completions',
      json({ messages: ask(QUESTION), stream: true }, { authorization: `Bearer ${key}` }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBeNull();
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers.get(header), header).not.toBeNull();
    const body = await response.text();
    expect(body.startsWith('data: {')).toBe(true);
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
    // No model was sent: the default answers.
    expect(body).toContain('"model":"library-rag"');
  });

  it('says plainly that nothing was found, with no sources, when no passage is relevant (plain and streamed)', async () => {
    const question = 'What is the airspeed velocity of an unladen swallow?';
    const plain = (await client.chat.completions.create({
      model: 'library-rag',
      messages: ask(question),
    })) as WithLibrary<OpenAI.ChatCompletion>;
    expect(plain.choices[0]!.message.content).toBe(NOT_FOUND_ANSWER);
    expect(plain.library).toEqual({ hits: 0, ai: false, sources: [] });
    const final = (await client.chat.completions
      .stream({ model: 'library-rag', messages: ask(question) })
      .finalChatCompletion()) as unknown as WithLibrary<OpenAI.ChatCompletion>;
    expect(final.choices[0]!.message.content).toBe(NOT_FOUND_ANSWER);
    expect(final.library.sources).toEqual([]);
  });

  it('takes earlier user turns as context when the last turn is too short to search on', async () => {
    const completion = (await client.chat.completions.create({
      model: 'library-rag',
      messages: [
        { role: 'system', content: 'أجب باختصار.' },
        { role: 'user', content: 'حدثني عن المأمون في بغداد' },
        { role: 'assistant', content: 'دخل المأمون بغداد من خراسان [1].' },
        { role: 'user', content: 'وماذا لبس؟' },
      ],
    })) as WithLibrary<OpenAI.ChatCompletion>;
    expect(completion.library.sources.length).toBeGreaterThan(0);
    expect(completion.library.sources.every((source) => source.book_id === BOOK)).toBe(true);
    expect(completion.choices[0]!.message.content).toMatch(/\[\d\]/);
  });

  it('honours max_tokens by cutting the extractive answer short with finish_reason length', async () => {
    const completion = await client.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION), max_tokens: 5 });
    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.usage!.completion_tokens).toBeLessThanOrEqual(5);
  });
});

describe('chat errors in the library error shape', () => {
  const raw = (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
    stack.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers 422 invalid_parameter naming messages when it is missing, empty or not an array', async () => {
    for (const body of [{}, { messages: [] }, { messages: 'hello' }, { messages: [{ role: 'assistant', content: 'hi' }] }]) {
      const response = await raw(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const { error } = (await response.json()) as { error: Record<string, unknown> };
      expect(error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_parameter', param: 'messages' });
    }
  });

  it('names the malformed field of a message, through the SDK too', async () => {
    const cases: Array<[unknown, string]> = [
      [[{ content: 'سؤال' }], 'messages[0].role'],
      [[{ role: 'user' }], 'messages[0].content'],
      [[{ role: 'user', content: 5 }], 'messages[0].content'],
      [[{ role: 'wizard', content: 'سؤال' }], 'messages[0].role'],
      [[{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }], 'messages[0].content'],
    ];
    for (const [messages, param] of cases) {
      const error = await client.chat.completions
        .create({ model: 'library-rag', messages: messages as never })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError);
      expect(error).toMatchObject({ status: 422, code: 'invalid_parameter', param, type: 'invalid_request_error' });
    }
  });

  it('refuses an unknown model, n > 1 and out-of-range sampling with 422 naming each', async () => {
    const response = await raw({ model: 'gpt-9', messages: ask(QUESTION), n: 2, temperature: 7, stream: true });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const { error } = (await response.json()) as { error: { param: string; details: Array<{ field: string }> } };
    expect(error.param).toBe('model');
    expect(error.details.map((detail) => detail.field)).toEqual(['model', 'n', 'temperature']);
  });

  it('answers a body that is not JSON with 422 invalid_json', async () => {
    const response = await raw('{"messages": [');
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });

  it('answers 401 missing_api_key as JSON, never as a stream, plain and with stream: true', async () => {
    for (const stream of [false, true]) {
      const response = await raw({ messages: ask(QUESTION), stream }, {});
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({
        error: { message: expect.any(String), type: 'authentication_error', code: 'missing_api_key', param: null, details: null },
      });
    }
    const anonymous = new OpenAI({ apiKey: 'qk_live_nope', baseURL: `${stack.url}/v1`, maxRetries: 0 });
    await expect(anonymous.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION), stream: true })).rejects.toMatchObject({
      status: 401,
      code: 'invalid_api_key',
    });
    await expect(anonymous.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('answers 429 with Retry-After and the quota headers before any byte of a stream once the quota is used', async () => {
    const limited = await adminKey(stack);
    await adminPost(stack, `/admin/keys/${limited.id}/rpd`, { rpd: 1 });
    const first = await raw({ messages: ask(QUESTION), stream: true }, { authorization: `Bearer ${limited.key}` });
    expect(first.status).toBe(200);
    await first.text();
    const second = await raw({ messages: ask(QUESTION), stream: true }, { authorization: `Bearer ${limited.key}` });
    expect(second.status).toBe(429);
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(second.headers.get('x-quota-remaining')).toBe('0');
    expect(((await second.json()) as { error: { code: string; type: string } }).error).toMatchObject({
      code: 'quota_exceeded',
      type: 'rate_limit_error',
    });
  });
});

describe('GraphQL libraryChat', () => {
  it('returns the answer and its sources (non-streamed), for the bearer key', async () => {
    const query = `mutation($request: LibraryChatInput!) { libraryChat(request: $request) { answer ai hits finishReason sources { ref passage { id bookId text } } } }`;
    const { status, body } = await stack.graphql<{
      libraryChat: { answer: string; ai: boolean; sources: Array<{ ref: number; passage: { id: string } }> };
    }>(query, { request: { messages: ask(QUESTION) } }, { authorization: `Bearer ${key}` });
    expect(status).toBe(200);
    expect(body.data!.libraryChat.ai).toBe(false);
    expect(body.data!.libraryChat.answer).toContain('سنة أربع ومائتين');
    expect(body.data!.libraryChat.sources.map((source) => source.passage.id)).toContain(`${BOOK}-1`);
  });
});

describe('stream metrics', () => {
  it('counts streaming operations on /metrics, which Apollo plugins never see', async () => {
    const stream = await client.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION), stream: true });
    for await (const chunk of stream) void chunk;
    const text = await (await stack.fetch('/metrics')).text();
    expect(text).toMatch(/qantara_stream_operations_total\{operation="libraryChatCompletion",outcome="opened"\} [1-9]\d*/);
  });
});
