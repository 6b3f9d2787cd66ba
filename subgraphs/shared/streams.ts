import type { GraphQLFormattedError } from 'graphql';
import { CommonErrorCode, EdgeErrorCode, wireCode } from '../../contracts/errors.js';
import type { Logger } from '../../runtime/logger.js';
import type { SubgraphContext } from './context.js';
import { formatSubgraphError } from './format-error.js';

/**
 * Streaming operations: the path beside GraphQL for answers that arrive piece by piece
 * (the gateway can neither `@defer` nor subscribe through federation). A module declares
 * them in contracts (a `stream` operation, or a REST binding's `stream`); they run
 * through the same pipeline and `SubgraphContext` as a GraphQL operation and produce
 * typed events that know nothing of HTTP or SSE. See docs/adr/0006.
 */

/** One streaming operation bound to its services: the events of one request, stopped by `signal`. */
export type StreamHandler = (
  input: unknown,
  ctx: SubgraphContext,
  signal: AbortSignal,
  /** The raw request body of an upload (e.g. a file to import), read as it arrives; absent otherwise. */
  body?: AsyncIterable<Uint8Array>,
) => AsyncIterable<unknown>;

/** Header carrying an upload's input (URI-encoded JSON) to a remote stream endpoint. */
export const STREAM_INPUT_HEADER = 'x-stream-input';

export interface StreamRequest {
  readonly name: string;
  /** The operation's input; the REST facade sends the variables of the route's GraphQL operation. */
  readonly input: unknown;
  /** An upload's raw body, passed through unread so its size never sits in memory. */
  readonly body?: AsyncIterable<Uint8Array>;
}

/**
 * A stream after its first event was pulled. Refusals (keys, quotas, bad input) happen
 * before the first event, so they come back as an ordinary error, before any byte of
 * the stream is sent; `extensions` are the edge facts (rate limits) either way.
 */
export type StreamOpening =
  | { readonly ok: true; readonly extensions: Record<string, unknown>; readonly events: AsyncIterable<unknown> }
  | { readonly ok: false; readonly extensions: Record<string, unknown>; readonly error: GraphQLFormattedError };

/** A stream that failed after its first event, with the error formatted as at every subgraph boundary. */
export class StreamFailure extends Error {
  constructor(readonly error: GraphQLFormattedError) {
    super(error.message);
    this.name = 'StreamFailure';
  }
}

const notFound = (name: string): GraphQLFormattedError => ({
  message: `no stream operation ${name}`,
  extensions: { code: wireCode(CommonErrorCode.NOT_FOUND), http: { status: 404 } },
});

/** The client left before the stream opened; nobody reads this answer, it only ends the request. */
export const CLIENT_GONE: GraphQLFormattedError = {
  message: 'the client closed the request',
  extensions: { code: wireCode(EdgeErrorCode.CLIENT_CLOSED), http: { status: 499 } },
};

function formatStreamError(error: unknown, logger: Logger): GraphQLFormattedError {
  return formatSubgraphError({ message: error instanceof Error ? error.message : String(error) }, error, logger);
}

/** Runs a stream up to its first event: a failure until then is an ordinary, formatted error. */
export async function openStream(
  handler: StreamHandler | undefined,
  request: StreamRequest,
  ctx: SubgraphContext,
  signal: AbortSignal,
): Promise<StreamOpening> {
  if (!handler) return { ok: false, extensions: ctx.extensions, error: notFound(request.name) };
  let iterator: AsyncIterator<unknown>;
  let first: IteratorResult<unknown>;
  try {
    iterator = handler(request.input, ctx, signal, request.body)[Symbol.asyncIterator]();
    first = await iterator.next();
  } catch (error) {
    return { ok: false, extensions: ctx.extensions, error: signal.aborted ? CLIENT_GONE : formatStreamError(error, ctx.logger) };
  }
  return { ok: true, extensions: ctx.extensions, events: continueFrom(first, iterator, ctx.logger, signal) };
}

/** The events from the first one on; a later failure becomes a StreamFailure, a stop by the consumer stops the source. */
async function* continueFrom(
  first: IteratorResult<unknown>,
  iterator: AsyncIterator<unknown>,
  logger: Logger,
  signal: AbortSignal,
): AsyncGenerator<unknown> {
  let finished = first.done === true;
  try {
    if (finished) return;
    yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } catch (error) {
    finished = true;
    // A consumer that went away is not a failure worth a log line.
    if (signal.aborted) return;
    throw new StreamFailure(formatStreamError(error, logger));
  } finally {
    if (!finished) await iterator.return?.();
  }
}
