import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { GatewayContext } from '../gateway/context.js';
import { edgeHeaders } from '../gateway/edge-headers.js';
import type { StreamSources } from '../gateway/stream-sources.js';
import { StreamFailure } from '../subgraphs/shared/streams.js';
import { FacadeError } from '../edge/facade-error.js';
import { ERROR_MAPPERS } from './families.js';
import type { WireRequest } from '../contracts/operation.js';
import type { Route } from './route.js';

export interface EventStreamDeps {
  readonly streams: StreamSources;
  readonly contextFor: (ctx: Context) => GatewayContext;
}

const frame = (payload: unknown) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;

/** The SSE body: each event's payloads as they come, then `done`; a failure ends it with the family's error body. */
async function* frames(
  events: AsyncIterable<unknown>,
  encode: (event: unknown) => readonly unknown[],
  errorBody: (error: FacadeError) => unknown,
  done: string | undefined,
): AsyncGenerator<string> {
  try {
    for await (const event of events) {
      for (const payload of encode(event)) yield frame(payload);
    }
  } catch (error) {
    yield frame(errorBody(error instanceof StreamFailure ? FacadeError.fromGraphQL(error.error) : FacadeError.internal()));
    return;
  }
  if (done !== undefined) yield frame(done);
}

/**
 * Answers a route with its streaming operation as `text/event-stream`. Nothing is sent
 * until the first event exists: a refusal before it (key, quota, bad input, upstream
 * down) is thrown as a FacadeError and answered as JSON in the family's shape, with the
 * edge headers. Each frame is written as it comes (no buffering or compression on the
 * way), and a client that disconnects aborts the operation through its signal.
 */
export async function serveEventStream(
  ctx: Context,
  call: { readonly route: Route; readonly request: WireRequest; readonly variables: Record<string, unknown> },
  deps: EventStreamDeps,
): Promise<void> {
  const { route, request, variables } = call;
  const stream = route.binding.stream!;
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  const opening = await deps.streams.open(stream.operation, variables, deps.contextFor(ctx), controller.signal);
  for (const [name, value] of Object.entries(edgeHeaders(opening.extensions))) ctx.set(name, value);
  if (!opening.ok) throw FacadeError.fromGraphQL(opening.error);
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.req.socket.setNoDelay(true);
  const errorBody = (error: FacadeError) => ERROR_MAPPERS[route.family](error, ctx).body;
  ctx.body = Readable.from(frames(opening.events, stream.encoder(request), errorBody, stream.done));
}
