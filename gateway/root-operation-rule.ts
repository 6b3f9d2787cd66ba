import { GraphQLError, type ValidationContext, type ASTVisitor } from 'graphql';

/**
 * Refuses an operation whose root type the schema does not have (a `subscription`
 * before any subscription type exists) at validation, so it is a client's 400
 * rather than a failure of the query planner.
 */
export function KnownRootOperationRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (context.getSchema().getRootType(node.operation)) return;
      context.reportError(
        new GraphQLError(`This service has no ${node.operation} operations; send a query or a mutation.`, { nodes: [node] }),
      );
    },
  };
}
