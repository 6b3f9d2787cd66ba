import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GROUNDING_INSTRUCTION } from '../../subgraphs/library/chat/chat-prompt.js';
import { ADMIN_TOKEN, adminKey } from '../support/library-keys.js';
import { adminImport } from '../support/library-stack.js';
import { startFakeUpstream, TOKENS, UPSTREAM_USAGE, type FakeUpstream } from '../support/openai-upstream.js';
import { startStack, type TestStack } from '../support/stack.js';

/** Issue 5, `library.ai = true`: an OpenAI-compatible upstream on loopback (`LLM_BASE_URL`), through the `openai` SDK. */

const BOOK = '0280.IbnTayfur.Baghdad';
const QUESTION = 'متى كان دخول المأمون بغداد مقدمه من خراسان؟';
const TIMEOUT_MS = 1500;

type WithLibrary<T> = T & { library: { hits: number; ai: boolean; sources: Array<{ ref: number; id: string; text: string }> } };

let upstream: FakeUpstream;
let stack: TestStack;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({
    ADMIN_TOKEN,
    LLM_BASE_URL: upstream.url,
    LLM_API_KEY: 'sk-upstream-secret',
    LLM_MODEL: 'fake-llm',
    LLM_TIMEOUT_MS: String(TIMEOUT_MS),
    // The SDK's aborted stream leaves a spare connection that never sends a request; do not wait 10 s on it.
  });
  expect((await adminImport(stack, 'openiti')).status).toBe(200);
  client = new OpenAI({ apiKey: (await adminKey(stack, 'unlimited')).key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const ask = (content: string) => [{ role: 'user' as const, content }];

describe('with an LLM upstream', () => {
  it('lists library-rag and the upstream model', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toEqual(['library-rag', 'fake-llm']);
  });

  it('gives the upstream the passages and the instruction to answer only from them, and returns its answer with ai = true', async () => {
    const completion = (await client.chat.completions.create({
      model: 'library-rag',
      messages: [{ role: 'system', content: 'Be brief.' }, ...ask(QUESTION)],
      temperature: 0.2,
      max_tokens: 200,
    })) as WithLibrary<OpenAI.ChatCompletion>;
    expect(completion.choices[0]!.message.content).toBe(TOKENS.join(''));
    expect(completion.model).toBe('library-rag');
    expect(completion.library.ai).toBe(true);
    expect(completion.library.sources.map((source) => source.id)).toContain(`${BOOK}-1`);
    expect(completion.usage).toEqual(UPSTREAM_USAGE);
    const [request] = upstream.requests;
    expect(request!.headers.authorization).toBe('Bearer sk-upstream-secret');
    expect(request!.body).toMatchObject({ model: 'fake-llm', stream: true, temperature: 0.2, max_tokens: 200 });
    const [system, clientSystem, user] = request!.body.messages;
    expect(system!.role).toBe('system');
    expect(system!.content).toContain(GROUNDING_INSTRUCTION);
    for (const source of completion.library.sources) expect(system!.content).toContain(`[${source.ref}] كتاب بغداد`);
    expect(system!.content).toContain('سنة أربع ومائتين');
    expect(clientSystem).toEqual({ role: 'system', content: 'Be brief.' });
    expect(user).toEqual({ role: 'user', content: QUESTION });
  });

  it('streams the upstream tokens through as chunks, with library.ai on the first chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'fake-llm',
      messages: ask(QUESTION),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: Array<WithLibrary<OpenAI.ChatCompletionChunk>> = [];
    for await (const chunk of stream) chunks.push(chunk as WithLibrary<OpenAI.ChatCompletionChunk>);
    expect(chunks[0]!.library.ai).toBe(true);
    expect(chunks[0]!.model).toBe('fake-llm');
    const deltas = chunks.map((chunk) => chunk.choices[0]?.delta.content).filter((content) => content);
    expect(deltas).toEqual(TOKENS);
    expect(chunks.at(-1)!.usage).toEqual(UPSTREAM_USAGE);
    const final = (await client.chat.completions
      .stream({ model: 'library-rag', messages: ask(QUESTION) })
      .finalChatCompletion()) as unknown as WithLibrary<OpenAI.ChatCompletion>;
    expect(final.choices[0]!.message.content).toBe(TOKENS.join(''));
    expect(final.library.ai).toBe(true);
  });

  it('does not call the upstream when no passage is relevant, and says so with ai = false', async () => {
    const completion = (await client.chat.completions.create({
      model: 'library-rag',
      messages: ask('What is the airspeed of a swallow?'),
    })) as WithLibrary<OpenAI.ChatCompletion>;
    expect(completion.library).toEqual({ hits: 0, ai: false, sources: [] });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('upstream failures', () => {
  it('answers 502 upstream_error in the library shape when the upstream fails, plain and before any stream byte', async () => {
    upstream.mode = 'error';
    await expect(client.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION) })).rejects.toMatchObject({
      status: 502,
      code: 'upstream_error',
      type: 'upstream_error',
    });
    const response = await stack.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${client.apiKey}` },
      body: JSON.stringify({ messages: ask(QUESTION), stream: true }),
    });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await response.json()) as { error: Record<string, unknown> }).error).toMatchObject({
      type: 'upstream_error',
      code: 'upstream_error',
      param: null,
    });
  });

  it('answers 502 upstream_timeout when the upstream sends nothing, never hanging (plain and streamed)', async () => {
    upstream.mode = 'slow';
    for (const stream of [false, true]) {
      const started = performance.now();
      const error = await (
        stream
          ? client.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION), stream: true })
          : client.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION) })
      ).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 502, code: 'upstream_timeout' });
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 3000);
    }
    await Promise.all(upstream.requests.map((request) => request.closed));
    expect(upstream.requests.map((request) => request.closedEarly)).toEqual([true, true]);
  });

  it('ends a stream whose upstream stalls after the first token with an error event the SDK throws', async () => {
    upstream.mode = 'stall';
    const stream = await client.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION), stream: true });
    const received: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((caught: unknown) => caught);
    expect(received.join('')).toBe(TOKENS[0]);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ code: 'upstream_timeout', type: 'upstream_error' });
  });

  it('aborts the upstream request when the streaming client disconnects', async () => {
    upstream.mode = 'stall';
    const stream = await client.chat.completions.create({ model: 'library-rag', messages: ask(QUESTION), stream: true });
    let disconnectedAt = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) {
        disconnectedAt = performance.now();
        break; // the SDK aborts its HTTP request
      }
    }
    const [request] = upstream.requests;
    const closedAt = await request!.closed;
    expect(request!.closedEarly).toBe(true);
    // Well before the upstream timeout: the disconnect, not the watchdog, closed it.
    expect(closedAt - disconnectedAt).toBeLessThan(TIMEOUT_MS / 2);
  });
});
