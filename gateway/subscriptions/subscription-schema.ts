import { getNamedType, isCompositeType, parse, print, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { SubscriptionContract } from '../../contracts/subscription.js';

/**
 * What graphql-ws needs of each subscription of the supergraph's API schema, where each
 * service declares its own (subgraphs/shared/contracts/subscription-fields.ts): the
 * documents checking a connection's credentials and asking the owning service for a grant.
 */

/** One kind of credential of a subscription, as documents to run. */
export interface PreparedAccess {
  /** The query checking credentials at connect. */
  readonly authenticateDocument: string;
  /** The named query asking the owning service for the topic. */
  readonly grantDocument: string;
  /** The grant's field, whose `topic` the answer holds. */
  readonly grantField: string;
}

export interface PreparedSubscription {
  readonly contract: SubscriptionContract;
  /** In the contract's order: the first whose check a connection passed serves it. */
  readonly access: readonly PreparedAccess[];
}

function queryField(schema: GraphQLSchema, name: string): GraphQLField<unknown, unknown> {
  const field = schema.getQueryType()?.getFields()[name];
  if (!field) throw new Error(`subscriptions: no query field ${name} in the supergraph`);
  return field;
}

/** The least selection a field allows: `{ __typename }` for objects, nothing for scalars. */
const selection = (field: GraphQLField<unknown, unknown>): string => (isCompositeType(getNamedType(field.type)) ? ' { __typename }' : '');

function prepareAccess(schema: GraphQLSchema, access: SubscriptionContract['access'][number]): PreparedAccess {
  const grant = queryField(schema, access.grant.name);
  const variables = grant.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const args = grant.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const grantDocument = print(
    parse(`query SubscriptionGrant${variables ? `(${variables})` : ''} { ${grant.name}${args ? `(${args})` : ''} { topic } }`),
  );
  const authenticate = queryField(schema, access.authenticate.name);
  if (authenticate.args.some((arg) => arg.type.toString().endsWith('!'))) {
    throw new Error(`subscriptions: ${authenticate.name} takes required arguments; it cannot check a connection`);
  }
  const authenticateDocument = print(parse(`query SubscriptionAuthenticate { ${authenticate.name}${selection(authenticate)} }`));
  return { authenticateDocument, grantDocument, grantField: grant.name };
}

export function prepareSubscription(schema: GraphQLSchema, contract: SubscriptionContract): PreparedSubscription {
  return { contract, access: contract.access.map((access) => prepareAccess(schema, access)) };
}

/** The subscription field each contract declares, found in the API schema (composed from the subgraphs). */
export function subscriptionField(schema: GraphQLSchema, contract: SubscriptionContract): GraphQLField<unknown, unknown> {
  const field = schema.getSubscriptionType()?.getFields()[contract.name];
  if (!field) throw new Error(`subscriptions: no subscription field ${contract.name} in the supergraph`);
  return field;
}
