import { GraphQLError, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { schemaId } from '../../../contracts/schema-shape.js';
import { RESUME_ARGUMENT, type SubscriptionContract } from '../../../contracts/subscription.js';
import { EdgeErrorCode, wireCode } from '../../../contracts/errors.js';

/**
 * A service's subscriptions in its own schema, so they are composed into the supergraph
 * and clients see them in introspection: one `Subscription` field per declared
 * subscription, taking its grant query's arguments plus `afterSequence` (and its
 * deprecated aliases), typed as its event type. The gateway serves them over graphql-ws
 * (gateway/subscriptions/); a subgraph asked to run one directly refuses.
 */

const literal = (text: string) => JSON.stringify(text);

/** The `type Subscription` SDL of the contracts, read against the service's schema (grants and event types); empty without any. */
export function subscriptionTypeDefs(schema: GraphQLSchema, contracts: readonly SubscriptionContract[]): string {
  if (contracts.length === 0) return '';
  const fields = contracts.map((contract) => {
    const grantName = contract.access[0]!.grant.name;
    const grant = schema.getQueryType()?.getFields()[grantName];
    if (!grant) throw new Error(`subscription ${contract.name}: no query field ${grantName} in the ${contract.service} schema`);
    const eventType = schemaId(contract.event);
    if (!eventType || !schema.getType(eventType))
      throw new Error(`subscription ${contract.name}: no type ${eventType} in the ${contract.service} schema`);
    const args = grant.args.map(
      (arg) =>
        `${arg.description ? `${literal(arg.description)} ` : ''}${arg.name}: ${arg.type.toString()}${arg.deprecationReason ? ` @deprecated(reason: ${literal(arg.deprecationReason)})` : ''}`,
    );
    args.push(`${literal('Deliver only events with a larger `sequence`: pass the last one seen to resume.')} ${RESUME_ARGUMENT}: Int`);
    for (const alias of contract.resumeAliases ?? [])
      args.push(`${alias}: Int @deprecated(reason: ${literal(`Use \`${RESUME_ARGUMENT}\`.`)})`);
    return `${literal(contract.description)}\n${contract.name}(${args.join(', ')}): ${eventType}!`;
  });
  return `type Subscription {\n${fields.join('\n')}\n}\n`;
}

/** Resolvers of the subscriptions in a subgraph: only the gateway's graphql-ws path serves them. */
export function subscriptionResolvers(
  contracts: readonly SubscriptionContract[],
): Record<string, { subscribe: GraphQLFieldResolver<unknown, unknown> }> {
  const refuse = () => {
    throw new GraphQLError('subscriptions are served by the gateway over graphql-ws', {
      extensions: { code: wireCode(EdgeErrorCode.BAD_REQUEST), http: { status: 400 } },
    });
  };
  return Object.fromEntries(contracts.map((contract) => [contract.name, { subscribe: refuse }]));
}
