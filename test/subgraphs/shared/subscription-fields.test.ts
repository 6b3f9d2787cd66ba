import { buildSchema, parse, printType, extendSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { sagaProgress } from '../../../contracts/operations/sagas.contract.js';
import { threadUpdated } from '../../../contracts/research/thread-updated.contract.js';
import { subscriptionTypeDefs } from '../../../subgraphs/shared/contracts/subscription-fields.js';

/** Just enough of the two services' schemas: the grant queries and the event types. */
const SERVICE_SCHEMA = buildSchema(`
  type Query {
    coreSagaWatch(sagaId: ID!): SagaWatch
    researchThreadWatch("A case id." threadId: String!): ResearchThreadWatch
  }
  type SagaWatch { topic: String! }
  type ResearchThreadWatch { topic: String! }
  type SagaProgressEvent { sequence: Int! }
  type ResearchThreadEvent { sequence: Int! }
`);

const subscriptionType = (sdl: string) => printType(extendSchema(SERVICE_SCHEMA, parse(sdl)).getType('Subscription')!);

describe('a service’s subscriptions in its own schema', () => {
  it('declares each with its grant’s arguments, afterSequence and its event type', () => {
    const printed = subscriptionType(subscriptionTypeDefs(SERVICE_SCHEMA, [sagaProgress]));
    expect(printed).toMatch(/sagaProgress\(\s*sagaId: ID!\s*"""[^"]*"""\s*afterSequence: Int\s*\): SagaProgressEvent!/);
    expect(printed).not.toMatch(/\bafter:/);
  });

  it('keeps a former resume name as a deprecated argument', () => {
    const printed = subscriptionType(subscriptionTypeDefs(SERVICE_SCHEMA, [threadUpdated]));
    expect(printed).toContain('after: Int @deprecated(reason: "Use `afterSequence`.")');
    expect(printed).toMatch(/"""A case id."""\s*threadId: String!/);
  });

  it('declares nothing for a service without subscriptions, and refuses one whose event type the service lacks', () => {
    expect(subscriptionTypeDefs(SERVICE_SCHEMA, [])).toBe('');
    const withoutEvents = buildSchema('type Query { coreSagaWatch(sagaId: ID!): String }');
    expect(() => subscriptionTypeDefs(withoutEvents, [sagaProgress])).toThrow(/no type SagaProgressEvent/);
  });
});
