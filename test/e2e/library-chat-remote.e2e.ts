import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { System } from '../../server/system.js';
import { startDistributed, type DistributedStack } from '../support/distributed.js';
import { FIXTURE } from '../support/library-content.js';
import { ADMIN_TOKEN, json } from '../support/library-keys.js';
import { startFakeUpstream, TOKENS, type FakeUpstream } from '../support/openai-upstream.js';

/**
 * Issue 5, distributed: the gateway (`ROLE=gateway`) streams chat completions from a
 * `ROLE=subgraph:library` process over its `POST /streams/<name>` (NDJSON), found from
 * `SUBGRAPH_LIBRARY_URL`.
 */

const QUESTION = 'متى كان دخول المأمون بغداد مقدمه من خراسان؟';
const ask = [{ role: 'user' as const, content: QUESTION }];

let stack: DistributedStack;
let library: System;
let gateway: System;
let upstream: FakeUpstream;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startDistributed({}, { ADMIN_TOKEN, LLM_BASE_URL: upstream.url, LLM_MODEL: 'fake-llm', LLM_TIMEOUT_MS: '1500' });
  library = stack.subgraphs.library;
  gateway = stack.gateway;
  const imported = await fetch(`${gateway.url}/admin/import`, {
    method: 'POST',
    headers: { 'content-type': 'text/markdown', 'x-admin-token': ADMIN_TOKEN },
    body: readFileSync(FIXTURE.openiti),
  });
  expect(imported.status).toBe(200);
  const issued = await fetch(
    `${gateway.url}/admin/keys`,
    json({ email: 'remote-chat@example.org', plan: 'unlimited' }, { 'x-admin-token': ADMIN_TOKEN }),
  );
  client = new OpenAI({ apiKey: ((await issued.json()) as { key: string }).key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

type WithLibrary<T> = T & { library: { ai: boolean; sources: Array<{ id: string }> } };

describe('chat through a gateway and a remote library subgraph', () => {
  it('streams the upstream tokens with the library block (create stream: true)', async () => {
    const stream = await client.chat.completions.create({ model: 'library-rag', messages: ask, stream: true });
    const chunks: Array<WithLibrary<OpenAI.ChatCompletionChunk>> = [];
    for await (const chunk of stream) chunks.push(chunk as WithLibrary<OpenAI.ChatCompletionChunk>);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0]!.library.ai).toBe(true);
    expect(chunks[0]!.library.sources.map((source) => source.id)).toContain('0280.IbnTayfur.Baghdad-1');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(TOKENS.join(''));
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('answers the non-streamed form and finalChatCompletion() alike', async () => {
    const plain = (await client.chat.completions.create({ model: 'library-rag', messages: ask })) as WithLibrary<OpenAI.ChatCompletion>;
    const final = (await client.chat.completions
      .stream({ model: 'library-rag', messages: ask })
      .finalChatCompletion()) as unknown as WithLibrary<OpenAI.ChatCompletion>;
    expect(final.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
    expect(final.library).toEqual(plain.library);
  });

  it('refuses a missing key with a JSON 401 before any stream byte, with the key headers', async () => {
    const response = await fetch(
      `${gateway.url}/v1/chat/completions`,
      json({ messages: ask, stream: true }, { authorization: 'Bearer qk_live_unknown' }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  });

  it('ends the stream with the error when the upstream stalls mid-answer', async () => {
    upstream.mode = 'stall';
    const stream = await client.chat.completions.create({ model: 'library-rag', messages: ask, stream: true });
    const error = await (async () => {
      for await (const chunk of stream) void chunk;
    })().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'upstream_timeout' });
  });

  it('aborts the upstream request across both hops when the client disconnects', async () => {
    upstream.mode = 'stall';
    const stream = await client.chat.completions.create({ model: 'library-rag', messages: ask, stream: true });
    let disconnectedAt = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) {
        disconnectedAt = performance.now();
        break;
      }
    }
    const [request] = upstream.requests;
    const closedAt = await request!.closed;
    expect(request!.closedEarly).toBe(true);
    expect(closedAt - disconnectedAt).toBeLessThan(750);
  });

  it('answers an unknown stream name on the subgraph with an NDJSON head carrying a 404 error', async () => {
    const response = await fetch(`${library.url}/streams/nope`, json({ input: {} }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(JSON.parse(await response.text())).toMatchObject({ error: { extensions: { code: 'NOT_FOUND', http: { status: 404 } } } });
  });
});
