import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { startSystem, type System } from '../../server/system.js';
import { createTestDatabase } from '../support/database.js';
import { startDistributed, type DistributedStack } from '../support/distributed.js';

let stack: DistributedStack;
let gateway: System;

/** The distributed deployment: three `ROLE=subgraph:<name>` servers and one `ROLE=gateway`, over HTTP. */
beforeAll(async () => {
  stack = await startDistributed();
  gateway = stack.gateway;
});

afterAll(async () => {
  await stack?.stop();
});

describe('gateway against HTTP subgraphs', () => {
  it('plans one operation across the three remote subgraphs', async () => {
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ libraryHealth { service status } researchHealth { service } operationsHealth { service } }' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: {
        libraryHealth: { service: 'library', status: 'ok' },
        researchHealth: { service: 'research' },
        operationsHealth: { service: 'operations' },
      },
    });
  });

  it('serves the REST facade through remote subgraphs', async () => {
    const ready = await fetch(`${gateway.url}/api/v1/health/ready`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { status: string }).status).toBe('ok');
    const healthz = await fetch(`${gateway.url}/healthz`);
    expect(healthz.status).toBe(200);
  });

  it('serves an MCP endpoint through remote subgraphs: the key checked, a tool call metered', async () => {
    const registered = await fetch(`${gateway.url}/v1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'mcp@example.org' }),
    });
    expect(registered.status).toBe(201);
    const { key } = (await registered.json()) as { key: string };
    const client = new Client({ name: 'remote-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway.url}/v1/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
    );
    const result = await client.callTool({ name: 'categories', arguments: {} });
    expect(result).toMatchObject({ structuredContent: { total: 0, categories: [] } });
    await client.close();
    const me = (await (await fetch(`${gateway.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      usage: { today: number };
    };
    expect(me.usage.today).toBe(2);
    expect((await fetch(`${gateway.url}/v1/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(401);
  });

  it('has the remote owning subgraph refuse invalid REST input through its internal field: 401 first, then 422', async () => {
    const anonymous = await fetch(`${gateway.url}/v1/retrieve?q=x`);
    expect(anonymous.status).toBe(401);
    const registered = await fetch(`${gateway.url}/v1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'refusal@example.org' }),
    });
    const { key } = (await registered.json()) as { key: string };
    const invalid = await fetch(`${gateway.url}/v1/retrieve?q=x`, { headers: { authorization: `Bearer ${key}` } });
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toMatch(/\bq\b/);
    // The refusal's field is reached only that way: the public graph does not have it.
    const direct = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: '{ libraryInputRefusal(operation: "libraryRetrieve", issues: []) }' }),
    });
    expect(direct.status).toBe(400);
  });

  it('answers an unknown field with 400 GRAPHQL_VALIDATION_FAILED', async () => {
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ nope }' }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Array<{ extensions: { code: string } }> };
    expect(body.errors[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('ROLE=worker', () => {
  it('applies migrations and serves only liveness and metrics', async () => {
    const database = await createTestDatabase();
    const worker = await startSystem(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ROLE: 'worker', DATABASE_URL: database.url, DEMO_LIBRARY: 'false' }),
      createLogger('silent'),
    );
    try {
      expect(await (await fetch(`${worker.url}/health`)).json()).toEqual({ status: 'ok', role: 'worker' });
      expect((await fetch(`${worker.url}/metrics`)).status).toBe(200);
      expect((await fetch(`${worker.url}/healthz`)).status).toBe(404);
    } finally {
      await worker.stop();
      await database.drop();
    }
  });
});
