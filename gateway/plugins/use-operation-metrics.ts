import type { ApolloServerPlugin } from '@apollo/server';
import type { Metrics } from '../../runtime/metrics.js';
import type { GatewayContext } from '../context.js';

/** Counts every operation the gateway answers, by name, type and outcome. */
export function useOperationMetrics(metrics: Metrics): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse(requestContext) {
          const body = requestContext.response.body;
          const errors = body.kind === 'single' ? body.singleResult.errors : undefined;
          metrics.graphqlOperations.inc({
            operation: requestContext.operationName ?? 'anonymous',
            type: requestContext.operation?.operation ?? 'unknown',
            outcome: errors?.length ? 'error' : 'success',
          });
        },
      };
    },
  };
}
