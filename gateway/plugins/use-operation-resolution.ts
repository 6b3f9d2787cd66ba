import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { GatewayContext } from '../context.js';

/**
 * A valid document in which no operation can be chosen (several and no `operationName`,
 * or a name it does not have) is the client's 400, answered before the query planner,
 * which would fail on it as an internal error.
 */
export function useOperationResolution(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, operationName }) {
          if (operation) return;
          throw new GraphQLError(
            operationName
              ? `Unknown operation named "${operationName}".`
              : 'The document has several operations: send operationName to choose the one to run.',
            { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } } },
          );
        },
      };
    },
  };
}
