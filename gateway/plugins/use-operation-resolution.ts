import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind } from 'graphql';
import { errorCode, GraphQLErrorCode } from '../../contracts/errors.js';
import type { GatewayContext } from '../context.js';

/**
 * A valid document that names no single operation to run — several operations and no
 * `operationName`, or an `operationName` it does not contain — is the client's error
 * (400 `OPERATION_RESOLUTION_FAILURE`, worded as the GraphQL spec's GetOperation words
 * it), refused before the gateway plans it.
 */
export function useOperationResolution(): ApolloServerPlugin<GatewayContext> {
  const { code, status } = errorCode(GraphQLErrorCode.OPERATION_RESOLUTION_FAILURE);
  return {
    async requestDidStart() {
      return {
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
      };
    },
  };
}
