import type { Counter } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDistributed, type DistributedStack } from '../support/distributed.js';
import { freePort } from '../support/loopback.js';
import { demoEmail, login, OPERATIONS_ENV } from '../support/operations.js';

/**
 * The `User` entity when every subgraph is its own server behind a `ROLE=gateway`: the
 * gateway's `_entities` calls go over HTTP, and research and the library verify the account's
 * token against the keys operations publishes at the public origin (`PUBLIC_BASE_URL`).
 */

let deployment: DistributedStack;
let gateway: string;

beforeAll(async () => {
  const port = await freePort();
  gateway = `http://127.0.0.1:${port}`;
  deployment = await startDistributed({ ...OPERATIONS_ENV, PUBLIC_BASE_URL: gateway }, {}, { PORT: String(port) });
}, 180_000);
afterAll(async () => {
  await deployment?.stop();
});

const at = { fetch: (path: string, init?: RequestInit) => fetch(`${gateway}${path}`, init) };

async function entityFetches(subgraph: string): Promise<number> {
  const metric = deployment.gateway.metrics.registry.getSingleMetric('qantara_subgraph_fetches_total') as Counter | undefined;
  const values = (await metric?.get())?.values ?? [];
  return values.find((value) => value.labels.subgraph === subgraph && value.labels.root === 'entities')?.value ?? 0;
}

describe('the account across subgraph servers', () => {
  it('creates a library key with the sign-in token and reads it back through one query planned over HTTP', async () => {
    const session = await login(at, demoEmail('Engineer'));
    const created = await at.fetch('/v1/me/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
      body: JSON.stringify({ org: 'Pit 3' }),
    });
    expect(created.status).toBe(201);

    const before = { library: await entityFetches('library'), research: await entityFetches('research') };
    const response = await at.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
      body: JSON.stringify({ query: '{ iamMe { user { id email researchWorkspace { id } libraryKeys { plan org } } } }' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data?: { iamMe: { user: Record<string, unknown> } }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data!.iamMe.user).toEqual({
      id: session.userId,
      email: demoEmail('Engineer'),
      researchWorkspace: null,
      libraryKeys: [{ plan: 'free', org: 'Pit 3' }],
    });
    expect(await entityFetches('library')).toBe(before.library + 1);
    expect(await entityFetches('research')).toBe(before.research + 1);
  });
});
