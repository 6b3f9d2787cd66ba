import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { GraphQLError, Kind } from 'graphql';
import { errorCode, GraphQLErrorCode } from '../../contracts/errors.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { GatewayContext } from '../context.js';
import { edgeHeaders } from '../edge-headers.js';

/**
 * The edge's own work on every `/graphql` request, in one plugin whose listener is shared by
 * all requests (a plugin per concern cost a listener and two awaited hooks each per request):
 *
 * - a valid document that names no single operation to run — several operations and no
 *   `operationName`, or an `operationName` it does not contain — is the client's error (400
 *   `OPERATION_RESOLUTION_FAILURE`, worded as the GraphQL spec's GetOperation words it),
 *   refused before the gateway plans it;
 * - every operation answered is counted, by name, type and outcome;
 * - a field error's `extensions.http.status` becomes the HTTP status only when the operation
 *   produced no data at all; a partial result is still a 200;
 * - the headers subgraphs asked for (rate limits, quotas, `Retry-After`) are written on the
 *   response; a refused call (429) says when to come back, on /graphql as on REST.
 */
export function useEdgeResponse(metrics: Metrics): ApolloServerPlugin<GatewayContext> {
  const { code, status } = errorCode(GraphQLErrorCode.OPERATION_RESOLUTION_FAILURE);
  const listener: GraphQLRequestListener<GatewayContext> = {
    async didResolveOperation({ operation, document, request }) {
      if (operation) return;
      const count = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION).length;
      const message = request.operationName
        ? `Unknown operation named "${request.operationName}".`
        : count > 1
          ? 'Must provide operation name if query contains multiple operations.'
          : 'Must provide an operation.';
      throw new GraphQLError(message, { extensions: { code, http: { status } } });
    },
    async willSendResponse({ response, contextValue, operationName, operation }) {
      const single = response.body.kind === 'single' ? response.body.singleResult : undefined;
      const errors = single?.errors;
      metrics.graphqlOperations.inc({
        operation: operationName ?? 'anonymous',
        type: operation?.operation ?? 'unknown',
        outcome: errors?.length ? 'error' : 'success',
      });
      if (single?.data && Object.values(single.data).some((value) => value !== null)) response.http.status = 200;
      for (const [name, value] of Object.entries(edgeHeaders(contextValue.subgraphExtensions ?? {})))
        response.http.headers.set(name, value);
      const retryAfter = errors?.map((error) => error.extensions?.retryAfter).find((value) => typeof value === 'number');
      if (typeof retryAfter === 'number') response.http.headers.set('retry-after', String(retryAfter));
    },
  };
  return {
    async requestDidStart() {
      return listener;
    },
  };
}
