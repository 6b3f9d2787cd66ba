import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server speaking the OpenAI chat-completions format, standing in for an
 * LLM upstream (`LLM_BASE_URL`). Modes:
 * - `ok`: answers with `TOKENS` (SSE chunks, usage chunk, `[DONE]`, or one JSON completion);
 * - `error`: 500 with an OpenAI error body;
 * - `slow`: never sends a byte (until the request is closed);
 * - `stall`: sends the first token, then nothing more (until the request is closed).
 */
export type UpstreamMode = 'ok' | 'error' | 'slow' | 'stall';

export interface UpstreamRequest {
  readonly headers: IncomingMessage['headers'];
  readonly body: {
    model: string;
    stream?: boolean;
    messages: Array<{ role: string; content: string }>;
    [field: string]: unknown;
  };
  /** True once the connection closed before the upstream finished its answer. */
  closedEarly: boolean;
  /** Resolves when the request's connection closes, however it ends. */
  readonly closed: Promise<number>;
}

export interface FakeUpstream {
  /** Base URL to give as `LLM_BASE_URL` (ends in `/v1`). */
  readonly url: string;
  mode: UpstreamMode;
  readonly requests: UpstreamRequest[];
  /** As freshly started: answering `ok`, no requests seen (for a `beforeEach`). */
  reset(): void;
  close(): Promise<void>;
}

export const TOKENS = ['دخل ', 'المأمون ', 'بغداد ', 'سنة ', 'أربع ', 'ومائتين ', '[1]', '.'];
export const UPSTREAM_USAGE = { prompt_tokens: 321, completion_tokens: TOKENS.length, total_tokens: 321 + TOKENS.length };

const chunk = (model: string, delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'upstream-1',
  object: 'chat.completion.chunk',
  created: 1,
  model,
  choices: [{ index: 0, delta, finish_reason: finish }],
});

async function readBody(request: IncomingMessage): Promise<UpstreamRequest['body']> {
  const chunks: Buffer[] = [];
  for await (const part of request) chunks.push(part as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as UpstreamRequest['body'];
}

function send(response: ServerResponse, data: unknown): void {
  response.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

async function answer(mode: UpstreamMode, record: UpstreamRequest, response: ServerResponse): Promise<void> {
  const { body } = record;
  if (mode === 'slow') return; // the response stays open and empty
  if (mode === 'error') {
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'the model is overloaded', type: 'server_error', code: null, param: null } }));
    return;
  }
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    const message = { role: 'assistant', content: TOKENS.join('') };
    response.end(
      JSON.stringify({
        id: 'upstream-1',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message, finish_reason: 'stop' }],
        usage: UPSTREAM_USAGE,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  send(response, chunk(body.model, { role: 'assistant', content: '' }));
  for (const [index, token] of TOKENS.entries()) {
    send(response, chunk(body.model, { content: token }));
    if (mode === 'stall' && index === 0) return; // keeps the connection open, silent
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  send(response, chunk(body.model, {}, 'stop'));
  send(response, { ...chunk(body.model, {}), choices: [], usage: UPSTREAM_USAGE });
  send(response, '[DONE]');
  response.end();
}

/** Starts the fake upstream on an ephemeral loopback port. */
export async function startFakeUpstream(mode: UpstreamMode = 'ok'): Promise<FakeUpstream> {
  const requests: UpstreamRequest[] = [];
  const state = { mode };
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      let resolveClosed!: (at: number) => void;
      const record: UpstreamRequest = {
        headers: request.headers,
        body: await readBody(request),
        closedEarly: false,
        closed: new Promise<number>((resolve) => (resolveClosed = resolve)),
      };
      requests.push(record);
      response.on('close', () => {
        record.closedEarly = !response.writableFinished;
        resolveClosed(performance.now());
      });
      await answer(state.mode, record, response);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get mode() {
      return state.mode;
    },
    set mode(next: UpstreamMode) {
      state.mode = next;
    },
    requests,
    reset() {
      state.mode = 'ok';
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
