import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { ACCESS_KINDS_HEADER } from '../contracts/access.js';
import { SUBGRAPH_SECRET_HEADER } from '../runtime/http/subgraph-secret.js';
import { forwardedOnly, type RequestHeaders } from '../subgraphs/shared/context.js';
import type { RunningSubgraph } from '../subgraphs/shared/host.js';
import type { GatewayContext } from './context.js';

/**
 * The headers of the edge request a subgraph may see (`FORWARDED_HEADERS`), with the request id
 * client address, base URL and route access kinds the edge decided: a client's own `x-request-id`,
 * `x-client-ip`, `x-base-url` or `x-access-kinds` never passes as it was sent.
 */
export function forwardedHeaders(context: Partial<GatewayContext> | undefined): RequestHeaders {
  const {
    'x-request-id': _requestId,
    'x-client-ip': _clientIp,
    'x-base-url': _baseUrl,
    [ACCESS_KINDS_HEADER]: _accessKinds,
    ...headers
  } = forwardedOnly(context?.headers ?? {});
  const route = context?.routeAccess;
  return {
    ...headers,
    ...(context?.requestId ? { 'x-request-id': context.requestId } : {}),
    ...(context?.clientIp ? { 'x-client-ip': context.clientIp } : {}),
    ...(context?.baseUrl ? { 'x-base-url': context.baseUrl } : {}),
    ...(route ? { [ACCESS_KINDS_HEADER]: `${route.operation}=${route.kinds.join(',')}` } : {}),
  };
}

/**
 * Runs a subgraph in this process through the same execution path its HTTP
 * server uses, so in-process and distributed deployments behave alike.
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  constructor(private readonly subgraph: RunningSubgraph) {}

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const { request } = options;
    const context = 'context' in options ? options.context : undefined;
    const response = await this.subgraph.execute(
      { query: request.query ?? '', variables: request.variables ?? null, operationName: request.operationName ?? null },
      forwardedHeaders(context),
    );
    if (response.extensions && context) Object.assign(context.subgraphExtensions, response.extensions);
    return response as GatewayGraphQLResponse;
  }
}

type Fetcher = NonNullable<ConstructorParameters<typeof RemoteGraphQLDataSource>[0]>['fetcher'] & {};
type FetcherInit = NonNullable<Parameters<Fetcher>[1]>;

/**
 * The gateway serializes a subgraph request as `{"query":"<document>",…}`: a document that
 * starts with `query` or `{` is a query; a mutation (or anything else) is never merged.
 */
const QUERY_BODY = /^\{"query":"(query\b|\{)/;

/**
 * The key under which identical subgraph queries in flight share one fetch: the address, the
 * body (document, operation name, variables) and every header sent (credentials,
 * organization, client address, secret), but not the request id, which differs on every
 * request. No key for anything but a query.
 */
function mergeKey(url: string, init: FetcherInit | undefined): string | undefined {
  if (init?.method !== 'POST' || typeof init.body !== 'string' || !QUERY_BODY.test(init.body)) return undefined;
  const headers = Object.entries(init.headers ?? {})
    .filter(([name]) => name.toLowerCase() !== 'x-request-id')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([url, init.body, headers]);
}

type FetcherResponse = Awaited<ReturnType<Fetcher>>;

interface SharedAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: FetcherResponse['headers'];
  readonly body: string;
}

/** A caller's own response on a shared answer: its body is parsed anew for each, since the gateway merges data in place. */
function responseOf(answer: SharedAnswer, url: string): FetcherResponse {
  return {
    bodyUsed: false,
    url,
    redirected: false,
    status: answer.status,
    ok: answer.status >= 200 && answer.status < 300,
    statusText: answer.statusText,
    headers: answer.headers,
    text: async () => answer.body,
    json: async () => JSON.parse(answer.body) as unknown,
    arrayBuffer: async () => new TextEncoder().encode(answer.body).buffer as ArrayBuffer,
    clone: () => responseOf(answer, url),
  };
}

/**
 * Apollo's own fetcher for subgraph calls, and with `deduplicate`, identical queries in flight
 * at once (`mergeKey`) make one call: its answer is read once and each caller gets a response
 * of its own on it.
 */
export function subgraphFetcher(base: Fetcher, deduplicate: boolean, onMerged: () => void = () => {}): Fetcher {
  if (!deduplicate) return base;
  const inFlight = new Map<string, Promise<SharedAnswer>>();
  return async (url, init) => {
    const key = mergeKey(url, init);
    if (key === undefined) return base(url, init);
    let answer = inFlight.get(key);
    if (answer) {
      onMerged();
    } else {
      answer = base(url, init).then(async (response) => ({
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        body: await response.text(),
      }));
      inFlight.set(key, answer);
      // Gone once answered, so a later request fetches anew.
      const settled = () => void inFlight.delete(key);
      answer.then(settled, settled);
    }
    return responseOf(await answer, url);
  };
}

/**
 * Calls a subgraph over HTTP, passing on the caller's credentials and request id, and
 * `SUBGRAPH_SECRET` when set; `deduplicate` merges identical queries in flight (`subgraphFetcher`).
 */
export class ForwardingRemoteDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    url: string,
    private readonly subgraphSecret?: string,
    deduplicate = false,
    onMerged?: () => void,
  ) {
    super({ url });
    this.fetcher = subgraphFetcher(this.fetcher, deduplicate, onMerged);
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    const context = 'context' in options ? options.context : undefined;
    for (const [name, value] of Object.entries(forwardedHeaders(context))) {
      if (value !== undefined) options.request.http?.headers.set(name, value);
    }
    if (this.subgraphSecret) options.request.http?.headers.set(SUBGRAPH_SECRET_HEADER, this.subgraphSecret);
  }

  override async didReceiveResponse({
    response,
    context,
  }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['didReceiveResponse']>>[0]) {
    if (response.extensions && context?.subgraphExtensions) Object.assign(context.subgraphExtensions, response.extensions);
    return response;
  }
}
