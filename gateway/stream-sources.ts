import type { SubgraphName } from '../runtime/config.js';
import type { Metrics } from '../runtime/metrics.js';
import type { RequestHeaders } from '../subgraphs/shared/context.js';
import type { RunningSubgraph } from '../subgraphs/shared/host.js';
import type { StreamOpening, StreamRequest } from '../subgraphs/shared/streams.js';
import type { GatewayContext } from './context.js';
import { forwardedHeaders } from './data-sources.js';
import { RemoteStreamSource } from './remote-stream-source.js';
import type { StreamSource } from './stream-source.js';

/** Runs a subgraph's stream in this process through the same path its HTTP server uses. */
export class InProcessStreamSource implements StreamSource {
  constructor(private readonly subgraph: RunningSubgraph) {}

  open(request: StreamRequest, headers: RequestHeaders, signal: AbortSignal): Promise<StreamOpening> {
    return this.subgraph.openStream(request, headers, signal);
  }
}

/** `http://host:4001/graphql` → `http://host:4001/streams`: a subgraph serves its streams beside its GraphQL endpoint. */
export function streamsUrlFor(graphqlUrl: string): string {
  const url = new URL(graphqlUrl);
  url.pathname = url.pathname.replace(/\/graphql\/?$/, '').replace(/\/+$/, '') + '/streams';
  url.search = '';
  return url.toString();
}

/** The streaming operations the edge can open, each routed to the subgraph that declares it. */
export class StreamSources {
  constructor(
    private readonly sources: ReadonlyMap<string, StreamSource>,
    private readonly metrics?: Metrics,
  ) {}

  has(name: string): boolean {
    return this.sources.has(name);
  }

  /** Opens a stream with the caller's forwarded headers; its edge facts join the request's like a subgraph response's. */
  async open(
    name: string,
    input: unknown,
    context: GatewayContext,
    signal: AbortSignal,
    body?: AsyncIterable<Uint8Array>,
  ): Promise<StreamOpening> {
    const source = this.sources.get(name);
    if (!source) throw new Error(`no subgraph declares the stream ${name}`);
    const opening = await source.open({ name, input, body }, forwardedHeaders(context), signal);
    Object.assign(context.subgraphExtensions, opening.extensions);
    this.metrics?.streamOperations.inc({ operation: name, outcome: opening.ok ? 'opened' : 'refused' });
    return opening;
  }
}

/** One source per declared stream: the running subgraph when it is in this process, else its URL. */
export function createStreamSources(
  owners: Readonly<Record<string, SubgraphName>>,
  targets: Readonly<Record<SubgraphName, RunningSubgraph | string>>,
  metrics?: Metrics,
  subgraphSecret?: string,
): StreamSources {
  const sources = new Map<string, StreamSource>();
  for (const [name, subgraph] of Object.entries(owners)) {
    const target = targets[subgraph];
    sources.set(
      name,
      typeof target === 'string' ? new RemoteStreamSource(streamsUrlFor(target), subgraphSecret) : new InProcessStreamSource(target),
    );
  }
  return new StreamSources(sources, metrics);
}
