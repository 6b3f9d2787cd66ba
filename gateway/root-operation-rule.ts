import { GraphQLError, type ValidationContext, type ASTVisitor } from 'graphql';

/**
 * Refuses at validation, as a client's 400 rather than a failure of the query planner, an
 * operation the HTTP path cannot run: one whose root type the schema does not have, and a
 * subscription, which the schema declares but only graphql-ws serves (on the same address).
 */
export function KnownRootOperationRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (node.operation === 'subscription' && context.getSchema().getSubscriptionType()) {
        context.reportError(
          new GraphQLError(
            'Subscriptions are served over WebSocket with the graphql-ws protocol (subprotocol graphql-transport-ws) at this address, not over HTTP.',
            { nodes: [node] },
          ),
        );
        return;
      }
      if (context.getSchema().getRootType(node.operation)) return;
      context.reportError(
        new GraphQLError(`This service has no ${node.operation} operations; send a query or a mutation.`, { nodes: [node] }),
      );
    },
  };
}
