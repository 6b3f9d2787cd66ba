import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { FORWARDED_HEADERS, type RequestHeaders } from '../subgraphs/shared/context.js';
import type { RunningSubgraph } from '../subgraphs/shared/host.js';
import type { GatewayContext } from './context.js';

/** The headers of the edge request a subgraph may see, with the request id and client address. */
export function forwardedHeaders(context: Partial<GatewayContext> | undefined): RequestHeaders {
  const headers: Record<string, string | undefined> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = context?.headers?.[name];
    if (value !== undefined) headers[name] = value;
  }
  if (context?.requestId) headers['x-request-id'] = context.requestId;
  if (context?.clientIp) headers['x-client-ip'] = context.clientIp;
  return headers;
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

/** Calls a subgraph over HTTP, passing on the caller's credentials and request id. */
export class ForwardingRemoteDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    const context = 'context' in options ? options.context : undefined;
    for (const [name, value] of Object.entries(forwardedHeaders(context))) {
      if (value !== undefined) options.request.http?.headers.set(name, value);
    }
  }

  override async didReceiveResponse({
    response,
    context,
  }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['didReceiveResponse']>>[0]) {
    if (response.extensions && context?.subgraphExtensions) Object.assign(context.subgraphExtensions, response.extensions);
    return response;
  }
}
