import { extendSchema, getNamedType, isCompositeType, parse, print, type GraphQLField, type GraphQLSchema } from 'graphql';
import { schemaId } from '../../contracts/schema-shape.js';
import { resumeArgumentOf, type SubscriptionContract } from '../../contracts/subscription.js';

/**
 * The schema graphql-ws serves: the supergraph's API schema (queried through federation,
 * which has no subscriptions) with a `Subscription` type added, one field per declared
 * subscription. Its arguments are its grant queries' plus `after`; its type is the
 * declared event type, which must be a type of the supergraph.
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

/** The API schema with the subscriptions added (their resolvers are attached by the server). */
export function subscriptionSchema(apiSchema: GraphQLSchema, contracts: readonly SubscriptionContract[]): GraphQLSchema {
  if (contracts.length === 0) return apiSchema;
  const fields = contracts.map((contract) => {
    const grant = queryField(apiSchema, contract.access[0]!.grant.name);
    const eventType = schemaId(contract.event);
    if (!eventType || !apiSchema.getType(eventType))
      throw new Error(`subscription ${contract.name}: no type ${eventType} in the supergraph`);
    const args = grant.args.map((arg) => `${arg.name}: ${arg.type.toString()}`);
    args.push(`"Deliver only events with a larger \`sequence\` (resume after the last one seen)." ${resumeArgumentOf(contract)}: Int`);
    return `${JSON.stringify(contract.description)} ${contract.name}(${args.join(', ')}): ${eventType}!`;
  });
  return extendSchema(apiSchema, parse(`extend schema { subscription: Subscription } type Subscription { ${fields.join('\n')} }`));
}
