import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI } from 'openapi-types';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/research.js';
import { startStack, type TestStack } from '../support/stack.js';

/** The research service as an installation sees it: its description, its health, and the demo workspace. */

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ DEMO_RESEARCH: 'true' });
});
afterAll(async () => {
  await stack?.stop();
});

async function demo(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select w.id, k.mode, k.scopes, b.balance from research.workspace w
       join research.api_key k on k.workspace_id = w.id
       join research.credit_balance b on b.workspace_id = w.id and b.mode = 'test'
       where w.kind = 'demo'`,
    );
    return rows as Array<{ id: string; mode: string; scopes: string[]; balance: number }>;
  } finally {
    await client.end();
  }
}

describe('GET /.well-known/openapi.json', () => {
  it('is a valid OpenAPI 3.1 description of every research REST route, with scopes and error codes', async () => {
    const response = await stack.fetch('/.well-known/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    await expect(SwaggerParser.validate(structuredClone(document) as unknown as OpenAPI.Document)).resolves.toBeTruthy();
    expect(document.servers).toEqual([{ url: stack.url }]);
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/.well-known/agent-skills/index.json',
        '/.well-known/agent-skills/{skill}/SKILL.md',
        '/.well-known/api-catalog',
        '/.well-known/mcp/server-card.json',
        '/.well-known/oauth-authorization-server',
        '/.well-known/oauth-authorization-server/oidc',
        '/.well-known/oauth-protected-resource/api/chat',
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource/v1/mcp',
        '/.well-known/openapi.json',
        '/.well-known/openid-configuration',
        '/admin/research/workspaces',
        '/admin/research/workspaces/{workspaceId}/credits',
        '/api/chat/api-keys',
        '/api/chat/api-keys/{apiKeyId}/revoke',
        '/api/chat/api-keys/{apiKeyId}/rotate',
        '/api/chat/billing',
        '/api/chat/billing/top-ups',
        '/api/chat/sign-out',
        '/api/chat/threads',
        '/api/chat/threads/{threadId}',
        '/api/chat/threads/{threadId}/messages',
        '/api/chat/threads/{threadId}/research-runs',
        '/api/chat/threads/{threadId}/research-runs/{runId}',
        '/api/chat/workspace',
        '/health',
        '/mcp',
        '/research/docs',
        '/v1/api-keys',
        '/v1/api-keys/{apiKeyId}/revoke',
        '/v1/api-keys/{apiKeyId}/rotate',
        '/v1/billing',
        '/v1/billing/stripe-webhook',
        '/v1/billing/top-ups',
        '/v1/chat/threads',
        '/v1/chat/threads/{threadId}',
        '/v1/chat/threads/{threadId}/messages',
        '/v1/chat/threads/{threadId}/research-runs',
        '/v1/chat/threads/{threadId}/research-runs/{runId}',
        '/v1/ping',
      ].sort(),
    );
    const start = document.paths['/v1/chat/threads/{threadId}/research-runs'].post;
    expect(start.security).toEqual([{ researchKey: ['research_write'] }]);
    expect(Object.keys(start.responses)).toEqual(expect.arrayContaining(['202', '401', '402', '403', '404', '409', '422']));
    expect(start.responses['402'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ResearchCreditsError' });
    const codes = document['x-error-codes'].map((entry: { code: string }) => entry.code);
    expect(codes).toEqual(
      expect.arrayContaining(['insufficient_credits', 'insufficient_scope', 'thread_not_found', 'webhook_signature_invalid']),
    );
  });
});

describe('GET /health', () => {
  it('reports the database, the migrations and the queues with their job counts', async () => {
    const health = await stack.fetch('/health');
    expect(health.status).toBe(200);
    const body = (await health.json()) as { components: Record<string, { status: string; detail: string | null }> };
    expect(body.components.queues).toEqual({
      status: 'up',
      detail: expect.stringMatching(/^postgres; turns: \d+ waiting/),
      latencyMs: expect.any(Number),
    });
  });
});

describe('the demo workspace', () => {
  it('is created once at first start with test credits and a test key holding every scope', async () => {
    const [created, ...others] = await demo(stack.databaseUrl);
    expect(others).toEqual([]);
    expect(created).toMatchObject({ mode: 'test', balance: 300 });
    expect([...created!.scopes].sort()).toEqual([
      'api_keys_admin',
      'billing_read',
      'billing_write',
      'research_write',
      'threads_read',
      'threads_write',
    ]);
    const again = await startStack({ DEMO_RESEARCH: 'true', DATABASE_URL: stack.databaseUrl });
    await again.stop();
    expect(await demo(stack.databaseUrl)).toEqual([created]);
  });

  it('is not created with DEMO_RESEARCH=false', async () => {
    const plain = await startStack({ DEMO_RESEARCH: 'false' });
    try {
      expect(await demo(plain.databaseUrl)).toEqual([]);
      expect((await call(plain, null, 'GET', '/v1/ping')).status).toBe(401);
    } finally {
      await plain.stop();
    }
  });
});
