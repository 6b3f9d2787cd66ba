import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessOfKind } from '../../contracts/access.js';
import { routeAccess } from '../../contracts/operation.js';
import { RESEARCH_CONTRACTS } from '../../contracts/research/index.js';
import { RESEARCH_KEY_SCOPES } from '../fixtures/seed-access.js';
import { ALL_RESEARCH_SCOPES, call, createKey, fundedWorkspace, startResearchStack } from '../support/research.js';
import type { TestStack } from '../support/stack.js';

/**
 * Research keys against the scopes seed 001 part A (Variant A) gives each route
 * (test/fixtures/seed-access.ts), not the contracts: a key lacking the scope gets 403, a
 * key holding only that scope is admitted.
 */

let stack: TestStack;
let workspace: Awaited<ReturnType<typeof fundedWorkspace>>;
let threadId: string;

beforeAll(async () => {
  stack = await startResearchStack();
  workspace = await fundedWorkspace(stack, 'seed scopes', 1000, 'test');
  const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: 'A marketplace for used climbing gear.' });
  expect(created.status).toBe(202);
  threadId = created.body.thread.id;
});
afterAll(async () => {
  await stack?.stop();
});

/** A key of the workspace to act on (rotate, revoke), made fresh for each call. */
const throwawayKeyId = async () => {
  const created = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', { name: 'throwaway', scopes: ['threads_read'] });
  return created.body.id as string;
};

const fill = async (path: string) =>
  path.replace(':threadId', threadId).replace(':apiKeyId', path.includes(':apiKeyId') ? await throwawayKeyId() : '');

describe('research key scopes from the seed', () => {
  it('has a row for every research route that takes a key, and none for a route that is not served', () => {
    const keyed = RESEARCH_CONTRACTS.flatMap((contract) =>
      contract.rest
        .filter((binding) => accessOfKind(routeAccess(contract, binding), 'researchKey'))
        .map((binding) => `${binding.method} ${binding.path}`),
    );
    expect(keyed.filter((route) => !(route in RESEARCH_KEY_SCOPES))).toEqual([]);
    expect(Object.keys(RESEARCH_KEY_SCOPES).filter((route) => !keyed.includes(route))).toEqual([]);
  });

  it('refuses a key lacking the route’s scope with 403 and admits a key holding only that scope', async () => {
    const wrong: string[] = [];
    for (const [route, scope] of Object.entries(RESEARCH_KEY_SCOPES)) {
      const [method, path] = route.split(' ') as [string, string];
      const send = async (key: string) => call(stack, key, method, await fill(path), method === 'GET' ? undefined : {});
      if (scope) {
        const without = await send(
          await createKey(
            stack,
            workspace.adminKey,
            ALL_RESEARCH_SCOPES.filter((other) => other !== scope),
            'test',
          ),
        );
        if (without.status !== 403 || without.body?.requiredScope !== scope) wrong.push(`${route} without ${scope}: ${without.status}`);
      }
      const only = await send(await createKey(stack, workspace.adminKey, scope ? [scope] : ['billing_read'], 'test'));
      if (only.status === 401 || only.status === 403) wrong.push(`${route} with ${scope ?? 'any scope'} alone: ${only.status}`);
    }
    expect(wrong).toEqual([]);
  });
});
