import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../runtime/logger.js';
import type { SubgraphContext } from '../../../subgraphs/shared/context.js';
import { CommonErrorCode, DomainError } from '../../../contracts/errors.js';
import { openStream, StreamFailure, type StreamHandler } from '../../../subgraphs/shared/streams.js';

const context = (): SubgraphContext => ({
  em: undefined as never,
  headers: {},
  requestId: 'test',
  clientIp: undefined,
  logger: createLogger('silent'),
  extensions: {},
});

const open = (handler: StreamHandler, signal = new AbortController().signal, ctx = context()) =>
  openStream(handler, { name: 'test', input: null }, ctx, signal);

describe('openStream', () => {
  it('turns a failure before the first event into a formatted error, with the extensions set so far', async () => {
    // eslint-disable-next-line require-yield -- a stream refused before its first event
    const opening = await open(async function* (_input, ctx) {
      ctx.extensions.rateLimit = { seen: true };
      throw new DomainError(CommonErrorCode.RATE_LIMITED, 'slow down', { meta: { retryAfter: 3 } });
    });
    expect(opening).toEqual({
      ok: false,
      extensions: { rateLimit: { seen: true } },
      error: {
        message: 'slow down',
        extensions: { retryAfter: 3, code: 'RATE_LIMITED', http: { status: 429 }, param: null, details: null },
      },
    });
  });

  it('yields every event, and a failure after the first as a StreamFailure with a hidden message for unknown errors', async () => {
    const opening = await open(async function* () {
      yield 1;
      yield 2;
      throw new Error('database password is hunter2');
    });
    if (!opening.ok) throw new Error('expected the stream to open');
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const event of opening.events) seen.push(event);
    })().catch((error: unknown) => error);
    expect(seen).toEqual([1, 2]);
    expect(failure).toBeInstanceOf(StreamFailure);
    expect((failure as StreamFailure).error).toMatchObject({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it('stops the source when the consumer stops early', async () => {
    let stopped = false;
    const opening = await open(async function* () {
      try {
        for (let n = 0; ; n++) yield n;
      } finally {
        stopped = true;
      }
    });
    if (!opening.ok) throw new Error('expected the stream to open');
    for await (const event of opening.events) if (event === 2) break;
    expect(stopped).toBe(true);
  });

  it('ends quietly when the consumer went away and the source fails because of it', async () => {
    const controller = new AbortController();
    const opening = await open(async function* (_input, _ctx, signal) {
      yield 'first';
      await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    }, controller.signal);
    if (!opening.ok) throw new Error('expected the stream to open');
    const iterator = opening.events[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: 'first' });
    const next = iterator.next();
    controller.abort();
    expect(await next).toEqual({ done: true, value: undefined });
  });
});
