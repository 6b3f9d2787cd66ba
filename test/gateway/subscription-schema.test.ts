import { readFileSync } from 'node:fs';
import { parse, printType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { composeServices } from '@apollo/composition';
import { SUBSCRIPTIONS } from '../../contracts/registry.js';
import { prepareSubscription } from '../../gateway/subscriptions/subscription-schema.js';

/** The supergraph's API schema, as the gateway loads it. */
function apiSchema() {
  const names = ['library', 'research', 'operations'];
  const composed = composeServices(
    names.map((name) => ({
      name,
      url: `http://${name}.invalid/graphql`,
      typeDefs: parse(readFileSync(new URL(`../../schema/subgraphs/${name}.graphql`, import.meta.url), 'utf8')),
    })),
  );
  if (composed.errors) throw new Error(composed.errors.map((error) => error.message).join('\n'));
  return composed.schema.toAPISchema().toGraphQLJSSchema();
}

describe('the subscription schema', () => {
  it('composes one Subscription field per declared subscription from its subgraph: its grant’s arguments plus afterSequence, its event type', () => {
    const schema = apiSchema();
    const printed = printType(schema.getSubscriptionType()!);
    expect(Object.keys(schema.getSubscriptionType()!.getFields()).sort()).toEqual(SUBSCRIPTIONS.map((entry) => entry.name).sort());
    expect(printed).toContain('threadUpdated(');
    expect(printed).toMatch(/threadId: String!/);
    expect(printed).toMatch(/\): ResearchThreadEvent!/);
    expect(printed).toMatch(/sagaProgress\([^)]*sagaId: ID!/);
    expect(printed).toMatch(/\): SagaProgressEvent!/);
  });

  it('names the resume argument afterSequence on every subscription, keeping threadUpdated’s after as a deprecated alias', () => {
    const fields = apiSchema().getSubscriptionType()!.getFields();
    for (const field of Object.values(fields)) {
      const resume = field.args.find((arg) => arg.name === 'afterSequence');
      expect(resume?.type.toString(), field.name).toBe('Int');
      expect(resume?.deprecationReason, field.name).toBeFalsy();
    }
    const alias = fields.threadUpdated!.args.find((arg) => arg.name === 'after');
    expect(alias?.deprecationReason).toBe('Use `afterSequence`.');
    expect(fields.sagaProgress!.args.map((arg) => arg.name)).not.toContain('after');
  });

  it('asks the owning service for the topic and checks connections with a query without arguments, per kind of credential', () => {
    const prepared = prepareSubscription(apiSchema(), SUBSCRIPTIONS[0]!);
    const flat = (document: string) => document.replace(/\s+/g, ' ');
    expect(prepared.access.map((access) => [flat(access.authenticateDocument), flat(access.grantDocument)])).toEqual([
      [
        'query SubscriptionAuthenticate { researchPing { __typename } }',
        'query SubscriptionGrant($threadId: String!) { researchThreadWatch(threadId: $threadId) { topic } }',
      ],
      [
        'query SubscriptionAuthenticate { researchWorkspace { __typename } }',
        'query SubscriptionGrant($threadId: String!) { researchThreadWatch(threadId: $threadId) { topic } }',
      ],
    ]);
  });
});
