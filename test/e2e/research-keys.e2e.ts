import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessOfKind, type ResearchScope } from '../../contracts/access.js';
import { routeAccess } from '../../contracts/operation.js';
import {
  ALL_RESEARCH_SCOPES,
  allComplete,
  call,
  createKey,
  createWorkspace,
  fundedWorkspace,
  RESEARCH_ADMIN_TOKEN,
  readUntil,
  startResearchStack,
  type Reply,
} from '../support/research.js';
import type { TestStack } from '../support/stack.js';

/** Workspaces, scoped keys, rotation and revocation, over real HTTP. */

let stack: TestStack;
let workspace: Awaited<ReturnType<typeof fundedWorkspace>>;
let threadId: string;

beforeAll(async () => {
  stack = await startResearchStack();
  // Test keys: top-ups run on the sandbox, so every route can succeed.
  workspace = await fundedWorkspace(stack, 'scope matrix', 1000, 'test');
  const created = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message: 'An app for dog owners to book sitters.' });
  threadId = created.body.thread.id;
  // The idea must be known before research can start on the case.
  await readUntil(stack, workspace.key, threadId, allComplete);
});
afterAll(async () => {
  await stack?.stop();
});

interface Route {
  readonly method: string;
  readonly scope: ResearchScope | null;
  /** The path and body, built per call (some need a fresh key to act on). */
  readonly request: () => Promise<{ path: string; body?: unknown }>;
}

const throwawayKey = async () => {
  const list = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', { name: 'throwaway', scopes: ['threads_read'] });
  return list.body.id as string;
};

const ROUTES: Readonly<Record<string, Route>> = {
  'GET /v1/ping': { method: 'GET', scope: null, request: async () => ({ path: '/v1/ping' }) },
  'GET /v1/billing': { method: 'GET', scope: 'billing_read', request: async () => ({ path: '/v1/billing' }) },
  'POST /v1/billing/top-ups': {
    method: 'POST',
    scope: 'billing_write',
    request: async () => ({
      path: '/v1/billing/top-ups',
      body: { usdQuantity: 1, successUrl: 'https://example.org/ok', cancelUrl: 'https://example.org/no' },
    }),
  },
  'GET /v1/api-keys': { method: 'GET', scope: 'api_keys_admin', request: async () => ({ path: '/v1/api-keys' }) },
  'POST /v1/api-keys': {
    method: 'POST',
    scope: 'api_keys_admin',
    request: async () => ({ path: '/v1/api-keys', body: { name: 'made in the matrix', scopes: ['billing_read'] } }),
  },
  'POST /v1/api-keys/:apiKeyId/rotate': {
    method: 'POST',
    scope: 'api_keys_admin',
    request: async () => ({ path: `/v1/api-keys/${await throwawayKey()}/rotate` }),
  },
  'POST /v1/api-keys/:apiKeyId/revoke': {
    method: 'POST',
    scope: 'api_keys_admin',
    request: async () => ({ path: `/v1/api-keys/${await throwawayKey()}/revoke` }),
  },
  'GET /v1/chat/threads': { method: 'GET', scope: 'threads_read', request: async () => ({ path: '/v1/chat/threads' }) },
  'GET /v1/chat/threads/:threadId': {
    method: 'GET',
    scope: 'threads_read',
    request: async () => ({ path: `/v1/chat/threads/${threadId}` }),
  },
  'POST /v1/chat/threads': {
    method: 'POST',
    scope: 'threads_write',
    request: async () => ({ path: '/v1/chat/threads', body: { message: 'Another idea.' } }),
  },
  'POST /v1/chat/threads/:threadId/messages': {
    method: 'POST',
    scope: 'threads_write',
    request: async () => ({ path: `/v1/chat/threads/${threadId}/messages`, body: { message: 'Pricing: a subscription.' } }),
  },
  'GET /v1/chat/threads/:threadId/research-runs/:runId': {
    method: 'GET',
    scope: 'threads_read',
    request: async () => {
      const researcher = await createKey(stack, workspace.adminKey, ['research_write'], 'test');
      const started = await call(stack, researcher, 'POST', `/v1/chat/threads/${threadId}/research-runs`, { force: true });
      expect(started.status, started.text).toBe(202);
      return { path: `/v1/chat/threads/${threadId}/research-runs/${started.body.runId as string}` };
    },
  },
  'POST /v1/chat/threads/:threadId/research-runs': {
    method: 'POST',
    scope: 'research_write',
    request: async () => ({ path: `/v1/chat/threads/${threadId}/research-runs`, body: { force: true } }),
  },
};

async function send(route: Route, key: string | null): Promise<Reply> {
  const { path, body } = await route.request();
  return call(stack, key, route.method, path, body);
}

describe('the scope matrix of every route', () => {
  for (const [name, route] of Object.entries(ROUTES)) {
    it(`${name}: 401 without a key or with an unknown one, 403 naming ${route.scope ?? 'no scope'} when it is missing, success with it alone`, async () => {
      const missing = await send(route, null);
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ error: expect.any(String), code: 'missing_api_key' });
      const unknown = await send(route, `rk_test_${'x'.repeat(43)}`);
      expect(unknown.status).toBe(401);
      expect(unknown.body.code).toBe('invalid_api_key');
      const others = ALL_RESEARCH_SCOPES.filter((scope) => scope !== route.scope);
      const without = await send(route, await createKey(stack, workspace.adminKey, others, 'test'));
      if (route.scope) {
        expect(without.status).toBe(403);
        expect(without.body).toEqual({
          error: `This API key lacks the scope ${route.scope}.`,
          code: 'insufficient_scope',
          requiredScope: route.scope,
        });
      } else {
        expect(without.status).toBe(200);
      }
      const only = await send(route, await createKey(stack, workspace.adminKey, route.scope ? [route.scope] : ['billing_read'], 'test'));
      expect(only.status, only.text).toBeLessThan(300);
    });
  }

  it('covers every REST route of the research service that takes a key', async () => {
    const { RESEARCH_CONTRACTS } = await import('../../contracts/research/index.js');
    const keyed = RESEARCH_CONTRACTS.flatMap((contract) =>
      contract.rest
        .filter((binding) => accessOfKind(routeAccess(contract, binding), 'researchKey'))
        .map((binding) => `${binding.method} ${binding.path}`),
    );
    expect(keyed.sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it('refuses GraphQL fields alike: 403 insufficient_scope in the error extensions', async () => {
    const key = await createKey(stack, workspace.adminKey, ['billing_read'], 'test');
    const denied = await stack.graphql('{ researchThreads { items { id } } }', {}, { authorization: `Bearer ${key}` });
    expect(denied.body.errors?.[0]?.extensions).toMatchObject({
      code: 'insufficient_scope',
      http: { status: 403 },
      requiredScope: 'threads_read',
    });
    const allowed = await stack.graphql('{ researchBilling { creditBalance currency } }', {}, { authorization: `Bearer ${key}` });
    expect(allowed.body.data).toEqual({ researchBilling: { creditBalance: expect.any(Number), currency: 'usd' } });
  });
});

describe('/v1/ping', () => {
  it('answers the scopes the key holds and the supported route groups', async () => {
    const key = await createKey(stack, workspace.adminKey, ['threads_read', 'billing_read'], 'test');
    const ping = await call(stack, key, 'GET', '/v1/ping');
    expect(ping.status).toBe(200);
    expect(ping.body).toEqual({
      grantedScopes: ['billing_read', 'threads_read'],
      ok: true,
      supportedRouteGroups: ['mcp', 'billing', 'threads'],
    });
  });
});

describe('keys', () => {
  it('requires an explicit array of Variant A scope names to create a key (422 otherwise)', async () => {
    for (const body of [
      { name: 'no scopes' },
      { name: 'empty', scopes: [] },
      { name: 'coarse', scopes: ['read'] },
      { name: 'text', scopes: 'threads_read' },
    ]) {
      const refused = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.code).toBe('validation_failed');
      expect(refused.body.details[0].field).toMatch(/^scopes/);
    }
  });

  it('shows a new secret once: rk_test_ or rk_live_, stored as a hash, listed without it', async () => {
    const created = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', {
      name: 'live one',
      scopes: ['threads_read'],
      mode: 'live',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({ name: 'live one', mode: 'live', scopes: ['threads_read'], status: 'active' });
    expect(created.body.key).toMatch(/^rk_live_[A-Za-z0-9_-]{43}$/);
    expect(created.body.prefix).toBe(created.body.key.slice(0, 12));
    const list = await call(stack, workspace.adminKey, 'GET', '/v1/api-keys');
    const listed = list.body.apiKeys.find((key: { id: string }) => key.id === created.body.id);
    expect(listed).toMatchObject({ id: created.body.id, prefix: created.body.prefix });
    expect(list.text).not.toContain(created.body.key);
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    const { rows } = await client.query('select key_hash from research.api_key where id = $1', [created.body.id]);
    await client.end();
    const { createHash } = await import('node:crypto');
    expect(rows[0].key_hash).toBe(createHash('sha256').update(created.body.key).digest('hex'));
  });

  it('rotates a key: the new secret works and the old one is refused at once', async () => {
    const created = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', { name: 'to rotate', scopes: ['billing_read'] });
    const old = created.body.key as string;
    expect((await call(stack, old, 'GET', '/v1/billing')).status).toBe(200);
    const rotated = await call(stack, workspace.adminKey, 'POST', `/v1/api-keys/${created.body.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: created.body.id, status: 'active', rotatedAt: expect.any(String) });
    expect(rotated.body.key).not.toBe(old);
    expect((await call(stack, old, 'GET', '/v1/billing')).status).toBe(401);
    expect((await call(stack, rotated.body.key, 'GET', '/v1/billing')).status).toBe(200);
  });

  it('revokes a key at once; a revoked key cannot be rotated or revoked again', async () => {
    const created = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', { name: 'to revoke', scopes: ['billing_read'] });
    const revoked = await call(stack, workspace.adminKey, 'POST', `/v1/api-keys/${created.body.id}/revoke`);
    expect(revoked.body).toMatchObject({ id: created.body.id, status: 'revoked', revokedAt: expect.any(String) });
    expect(revoked.body.key).toBeUndefined();
    const after = await call(stack, created.body.key, 'GET', '/v1/billing');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('api_key_revoked');
    expect((await call(stack, workspace.adminKey, 'POST', `/v1/api-keys/${created.body.id}/rotate`)).body.code).toBe(
      'api_key_already_revoked',
    );
    expect((await call(stack, workspace.adminKey, 'POST', `/v1/api-keys/${created.body.id}/revoke`)).status).toBe(409);
  });

  it('keeps keys to their workspace: another workspace’s key id is a 404', async () => {
    const other = await createWorkspace(stack, 'other');
    const foreign = await call(stack, other.adminKey, 'GET', '/v1/api-keys');
    const foreignId = foreign.body.apiKeys[0].id as string;
    const attempt = await call(stack, workspace.adminKey, 'POST', `/v1/api-keys/${foreignId}/revoke`);
    expect(attempt.status).toBe(404);
    expect(attempt.body.code).toBe('api_key_not_found');
    expect((await call(stack, other.adminKey, 'GET', '/v1/api-keys')).body.apiKeys[0].status).toBe('active');
  });
});

describe('admin bootstrap', () => {
  it('creates a workspace whose first key, shown once, may only manage keys', async () => {
    const response = await stack.fetch('/admin/research/workspaces', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': RESEARCH_ADMIN_TOKEN },
      body: JSON.stringify({ name: 'Integration' }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { workspace: { id: string }; apiKey: { key: string; scopes: string[] } };
    expect(body).toMatchObject({
      workspace: { id: expect.stringMatching(/^ws_/), name: 'Integration' },
      apiKey: { scopes: ['api_keys_admin'], mode: 'live' },
    });
    expect(body.apiKey.key).toMatch(/^rk_live_/);
    expect((await call(stack, body.apiKey.key, 'GET', '/v1/chat/threads')).status).toBe(403);
    expect((await call(stack, body.apiKey.key, 'GET', '/v1/api-keys')).status).toBe(200);
  });

  it('refuses a missing or wrong x-admin-token with 401 admin_unauthorized', async () => {
    for (const token of [undefined, 'wrong-token-0123456789']) {
      const response = await stack.fetch('/admin/research/workspaces', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { 'x-admin-token': token } : {}) },
        body: JSON.stringify({ name: 'x' }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Not authenticated', code: 'admin_unauthorized' });
    }
  });

  it('grants credits through the ledger and never below zero', async () => {
    const target = await createWorkspace(stack, 'grants');
    const grant = (credits: number) =>
      stack.fetch(`/admin/research/workspaces/${target.id}/credits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-token': RESEARCH_ADMIN_TOKEN },
        body: JSON.stringify({ credits, reason: 'support' }),
      });
    const granted = await grant(25);
    expect(await granted.json()).toMatchObject({ workspaceId: target.id, mode: 'live', credits: 25, reason: 'support', creditBalance: 25 });
    const overdrawn = await grant(-26);
    expect(overdrawn.status).toBe(402);
    expect(await overdrawn.json()).toEqual({ error: expect.any(String), creditBalance: 25, requiredCredits: 26 });
    const unknown = await stack.fetch('/admin/research/workspaces/ws_nope/credits', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': RESEARCH_ADMIN_TOKEN },
      body: JSON.stringify({ credits: 5, reason: 'x' }),
    });
    expect(unknown.status).toBe(404);
  });
});
