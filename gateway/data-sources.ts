import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { SUBGRAPH_SECRET_HEADER } from '../runtime/http/subgraph-secret.js';
import { forwardedOnly, type RequestHeaders } from '../subgraphs/shared/context.js';
import type { RunningSubgraph } from '../subgraphs/shared/host.js';
import type { GatewayContext } from './context.js';

/**
 * The headers of the edge request a subgraph may see (`FORWARDED_HEADERS`), with the request id
 * client address and base URL the edge decided: a client's own `x-request-id`, `x-client-ip` or `x-base-url` never
 * passes as it was sent.
 */
export function forwardedHeaders(context: Partial<GatewayContext> | undefined): RequestHeaders {
  const {
    'x-request-id': _requestId,
    'x-client-ip': _clientIp,
    'x-base-url': _baseUrl,
    ...headers
  } = forwardedOnly(context?.headers ?? {});
  return {
    ...headers,
    ...(context?.requestId ? { 'x-request-id': context.requestId } : {}),
    ...(context?.clientIp ? { 'x-client-ip': context.clientIp } : {}),
    ...(context?.baseUrl ? { 'x-base-url': context.baseUrl } : {}),
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

/** Calls a subgraph over HTTP, passing on the caller's credentials and request id, and `SUBGRAPH_SECRET` when set. */
export class ForwardingRemoteDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    url: string,
    private readonly subgraphSecret?: string,
  ) {
    super({ url });
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
