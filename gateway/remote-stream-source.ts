import type { GraphQLFormattedError } from 'graphql';
import { SUBGRAPH_SECRET_HEADER } from '../runtime/http/subgraph-secret.js';
import type { RequestHeaders } from '../subgraphs/shared/context.js';
import { CLIENT_GONE, STREAM_INPUT_HEADER, StreamFailure, type StreamOpening, type StreamRequest } from '../subgraphs/shared/streams.js';
import type { StreamSource } from './stream-source.js';
import { CommonErrorCode, wireCode } from '../contracts/errors.js';

/**
 * One line of `POST /streams/<name>` (server/subgraph-server.ts), NDJSON: first the head
 * `{extensions, error?}`, then `{event}` lines, then `{done: true}` or `{error}`.
 */
export interface StreamLine {
  readonly extensions?: Record<string, unknown>;
  readonly event?: unknown;
  readonly error?: GraphQLFormattedError;
  readonly done?: boolean;
}

const upstreamFailed = (message: string): GraphQLFormattedError => ({
  message,
  extensions: { code: wireCode(CommonErrorCode.UPSTREAM_FAILED), http: { status: 502 } },
});

/** Splits a byte stream into parsed JSON lines. */
async function* jsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamLine> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield JSON.parse(line) as StreamLine;
      newline = buffered.indexOf('\n');
    }
  }
  if (buffered.trim()) yield JSON.parse(buffered) as StreamLine;
}

/** The events after the head; a stream that ends without `done` was cut and is reported as such. */
async function* remoteEvents(lines: AsyncGenerator<StreamLine>): AsyncGenerator<unknown> {
  for await (const line of lines) {
    if (line.error) throw new StreamFailure(line.error);
    if (line.done) return;
    yield line.event;
  }
  throw new StreamFailure(upstreamFailed('the subgraph stream ended before it finished'));
}

/** Reads a subgraph's stream over HTTP; aborting `signal` closes the connection, which stops the stream there. */
export class RemoteStreamSource implements StreamSource {
  constructor(
    private readonly baseUrl: string,
    private readonly subgraphSecret?: string,
  ) {}

  async open(request: StreamRequest, headers: RequestHeaders, signal: AbortSignal): Promise<StreamOpening> {
    const sent: Record<string, string> = { accept: 'application/x-ndjson' };
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) sent[name] = value;
    if (this.subgraphSecret) sent[SUBGRAPH_SECRET_HEADER] = this.subgraphSecret;
    // An upload's body is piped through as it arrives, its input riding in a header.
    if (request.body) {
      sent['content-type'] = 'application/octet-stream';
      sent[STREAM_INPUT_HEADER] = encodeURIComponent(JSON.stringify(request.input ?? null));
    } else {
      sent['content-type'] = 'application/json';
    }
    let lines: AsyncGenerator<StreamLine>;
    let head: StreamLine | undefined;
    try {
      const response = await fetch(`${this.baseUrl}/${encodeURIComponent(request.name)}`, {
        method: 'POST',
        headers: sent,
        body: request.body ? (request.body as unknown as ReadableStream<Uint8Array>) : JSON.stringify({ input: request.input }),
        signal,
        ...(request.body ? { duplex: 'half' } : {}),
      } as RequestInit);
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        return { ok: false, extensions: {}, error: upstreamFailed(`the subgraph stream answered ${response.status}`) };
      }
      lines = jsonLines(response.body);
      head = (await lines.next()).value as StreamLine | undefined;
    } catch {
      return { ok: false, extensions: {}, error: signal.aborted ? CLIENT_GONE : upstreamFailed('the subgraph stream did not answer') };
    }
    const extensions = head?.extensions ?? {};
    if (!head || head.error) {
      await lines.return(undefined);
      return { ok: false, extensions, error: head?.error ?? upstreamFailed('the subgraph stream sent nothing') };
    }
    return { ok: true, extensions, events: remoteEvents(lines) };
  }
}
