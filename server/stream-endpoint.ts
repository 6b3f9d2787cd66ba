import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { RunningSubgraph } from '../subgraphs/shared/host.js';
import { STREAM_INPUT_HEADER, StreamFailure, type StreamOpening } from '../subgraphs/shared/streams.js';
import { BodyError, JSON_MAX_DEPTH, nestsDeeperThan, readJsonBody } from '../runtime/http/body.js';
import { requestHeaders } from '../runtime/http/headers.js';
import { forwardedOnly } from '../subgraphs/shared/context.js';
import { CommonErrorCode, EdgeErrorCode, wireCode } from '../contracts/errors.js';

/** `POST /streams/<name>`: a name as modules declare them. */
export const STREAM_PATH = /^\/streams\/([A-Za-z][A-Za-z0-9_]{0,63})$/;

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

const INTERNAL = {
  message: 'Internal server error',
  extensions: { code: wireCode(CommonErrorCode.INTERNAL_SERVER_ERROR), http: { status: 500 } },
};

/** Head, events, then `done` or the error that ended them (the format gateway/remote-stream-source.ts reads). */
async function* lines(opening: Extract<StreamOpening, { ok: true }>): AsyncGenerator<string> {
  yield line({ extensions: opening.extensions });
  try {
    for await (const event of opening.events) yield line({ event });
  } catch (error) {
    yield line({ error: error instanceof StreamFailure ? error.error : INTERNAL });
    return;
  }
  yield line({ done: true });
}

/**
 * Serves one streaming operation of a `ROLE=subgraph:<name>` process as NDJSON, each line
 * written as its event arrives. The gateway closing the connection aborts the stream,
 * which stops whatever the operation was waiting on (an LLM upstream request).
 */
export async function serveStream(ctx: Context, subgraph: RunningSubgraph, name: string): Promise<void> {
  let body: unknown;
  let upload: AsyncIterable<Uint8Array> | undefined;
  try {
    if (ctx.request.type === 'application/octet-stream') {
      const input = decodeURIComponent(ctx.get(STREAM_INPUT_HEADER) || 'null');
      if (nestsDeeperThan(Buffer.from(input), JSON_MAX_DEPTH)) throw new SyntaxError('nested too deeply');
      body = { input: JSON.parse(input) as unknown };
      upload = ctx.req;
    } else {
      body = await readJsonBody(ctx, 1_048_576);
    }
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof URIError) {
      ctx.status = 400;
      ctx.body = {
        errors: [{ message: `malformed ${STREAM_INPUT_HEADER} header`, extensions: { code: wireCode(EdgeErrorCode.BAD_REQUEST) } }],
      };
      return;
    }
    if (!(error instanceof BodyError)) throw error;
    ctx.status = error.status;
    ctx.body = { errors: [{ message: error.message, extensions: { code: wireCode(EdgeErrorCode.BAD_REQUEST) } }] };
    return;
  }
  const headers = forwardedOnly(requestHeaders(ctx));
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  const input = (body as { input?: unknown } | undefined)?.input;
  const opening = await subgraph.openStream({ name, input, body: upload }, headers, controller.signal);
  ctx.status = 200;
  ctx.type = 'application/x-ndjson';
  ctx.set('Cache-Control', 'no-cache');
  if (!opening.ok) {
    ctx.body = line({ extensions: opening.extensions, error: opening.error });
    return;
  }
  ctx.req.socket.setNoDelay(true);
  ctx.body = Readable.from(lines(opening));
}
