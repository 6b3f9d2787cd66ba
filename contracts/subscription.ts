import type { z } from 'zod';
import type { OperationContract, ServiceName } from './operation.js';

/**
 * One GraphQL subscription, declared as data like an operation contract. The gateway
 * serves it over graphql-ws (gateway/subscriptions/): the connection's credentials are
 * checked at connect with the `authenticate` query; each subscription asks the owning
 * service for a `grant` (a query taking the subscription's arguments but `afterSequence`, answering
 * `{ topic }`, refusing what the caller may not watch); then the events of that topic are
 * read from the service's topic feed, in order, after `afterSequence`. The event type is a named
 * type of the supergraph (some query returns it too, e.g. to catch up).
 */

/**
 * A service's topic feed: the tables events are appended to and the channel that wakes
 * readers. Producers write with subgraphs/shared/events/topic-feed.ts; the layout is the
 * contract between them and the gateway's reader.
 */
export interface TopicFeed {
  /** `"<schema>"."topic_event"`: (topic, sequence, type, payload, occurred_at), sequence from 1 per topic. */
  readonly events: string;
  /** `"<schema>"."topic_head"`: the last sequence of each topic. */
  readonly heads: string;
  /** `NOTIFY` channel; the payload is the topic. */
  readonly channel: string;
}

export function topicFeed(schema: string): TopicFeed {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`topic feed schema ${schema} is not a plain identifier`);
  return { events: `"${schema}"."topic_event"`, heads: `"${schema}"."topic_head"`, channel: `${schema}_topic_events` };
}

/** One kind of credential a subscription accepts, e.g. a key or a signed-in user's access token. */
export interface SubscriptionAccess {
  /** A query without arguments that fails for credentials of another kind or invalid ones (checked at connect). */
  readonly authenticate: OperationContract;
  /** A query answering `{ topic }` for the subscription's arguments (all but `afterSequence`), or refusing. */
  readonly grant: OperationContract;
}

export interface SubscriptionContract {
  readonly service: ServiceName;
  /** The field on `Subscription`. */
  readonly name: string;
  readonly description: string;
  /**
   * The credentials it accepts, each with its check and its grant: a subscription uses the
   * grant of the first whose check the connection passed. Every grant takes the same arguments.
   */
  readonly access: readonly SubscriptionAccess[];
  /** The event type, named with `.meta({ id })`; each event carries its `sequence`. */
  readonly event: z.ZodType;
  readonly feed: TopicFeed;
  /** Former names of `afterSequence` still accepted, deprecated, for one release. */
  readonly resumeAliases?: readonly string[];
}

/** The argument every subscription resumes with: deliver only events with a larger `sequence`. */
export const RESUME_ARGUMENT = 'afterSequence';

/** The names a subscription's resume argument is accepted under: `afterSequence`, then its deprecated aliases. */
export const resumeArgumentsOf = (contract: SubscriptionContract): readonly string[] => [
  RESUME_ARGUMENT,
  ...(contract.resumeAliases ?? []),
];

export function defineSubscription(declaration: SubscriptionContract): SubscriptionContract {
  const where = `subscription ${declaration.name}`;
  if (!/^[a-z][A-Za-z0-9]*$/.test(declaration.name)) throw new Error(`${where}: the name must be camelCase`);
  if (declaration.access.length === 0) throw new Error(`${where}: accepts no credentials`);
  const resume = resumeArgumentsOf(declaration);
  const argumentsOf = (grant: OperationContract) => Object.keys(grant.args.shape).sort().join();
  for (const { authenticate, grant } of declaration.access) {
    if (grant.kind !== 'query') throw new Error(`${where}: its grant ${grant.name} must be a query`);
    if (authenticate.kind !== 'query') throw new Error(`${where}: its authenticate check ${authenticate.name} must be a query`);
    for (const name of resume) if (name in grant.args.shape) throw new Error(`${where}: \`${name}\` is the subscription's own argument`);
    if (argumentsOf(grant) !== argumentsOf(declaration.access[0]!.grant))
      throw new Error(`${where}: its grants ${grant.name} and ${declaration.access[0]!.grant.name} take different arguments`);
  }
  return declaration;
}
