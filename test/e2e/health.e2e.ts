import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_LIMITS } from '../../gateway/limits.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('health endpoints', () => {
  it('library /healthz reports database, migrations and search up', async () => {
    const response = await stack.fetch('/healthz');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      status: 'ok',
      service: 'library',
      components: { database: { status: 'up' }, migrations: { status: 'up' }, search: { status: 'up' } },
    });
  });

  it('research /health reports component states', async () => {
    const response = await stack.fetch('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', service: 'research', components: { database: { status: 'up' } } });
  });

  it('operations liveness, alias, readiness and deep check answer as documented', async () => {
    const live = await stack.fetch('/api/v1/health/live');
    const liveBody = (await live.json()) as { at: string };
    expect(live.status).toBe(200);
    expect(liveBody).toEqual({ status: 'ok', service: 'operations', version: expect.any(String), at: expect.any(String) });
    expect(Number.isNaN(Date.parse(liveBody.at))).toBe(false);
    expect(await (await stack.fetch('/api/v1/health')).json()).toEqual({ status: 'ok' });
    for (const path of ['/api/v1/health/ready', '/api/v1/health/deep']) {
      const response = await stack.fetch(path);
      expect(response.status).toBe(200);
      // The document store and the scanner are reported too; the built-in scanner is degraded, which keeps readiness 200.
      const scanner = { status: 'degraded', message: expect.stringContaining('EICAR') };
      const components = {
        database: { status: 'up' },
        migrations: { status: 'up' },
        identity: { status: 'up' },
        objectStorage: { status: 'up' },
        virusScanner: scanner,
      };
      expect(await response.json()).toEqual({ status: 'ok', info: components, error: {}, details: components });
    }
  });
});

describe('unknown paths', () => {
  it('answer 404 in the library shape under /v1', async () => {
    const response = await stack.fetch('/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({
      error: { message: 'no route for /v1/nothing-here', type: 'not_found_error', code: 'not_found', param: null, details: null },
    });
  });

  it('answer 404 as application/problem+json under /api/v1', async () => {
    const response = await stack.fetch('/api/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await response.json()).toEqual({
      type: 'about:blank',
      title: 'Not found',
      status: 404,
      detail: 'no route for /api/v1/nothing-here',
      code: 'NOT_FOUND',
      instance: '/api/v1/nothing-here',
    });
  });

  it('answer 404 in the research shape under research prefixes', async () => {
    const response = await stack.fetch('/v1/billing/nothing');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'no route for /v1/billing/nothing', code: 'not_found' });
  });

  it('answer 404 in the admin shape under /admin', async () => {
    const response = await stack.fetch('/admin/nothing');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: 'no route for /admin/nothing' });
  });

  it('answer 405 with Allow for a known path and another method', async () => {
    const response = await stack.fetch('/api/v1/health/live', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect(((await response.json()) as { code: string }).code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('gateway', () => {
  it('federates the three subgraphs in one operation', async () => {
    const { status, body } = await stack.graphql('{ libraryHealth { service } researchHealth { service } operationsHealth { service } }');
    expect(status).toBe(200);
    expect(body.data).toEqual({
      libraryHealth: { service: 'library' },
      researchHealth: { service: 'research' },
      operationsHealth: { service: 'operations' },
    });
  });

  it('echoes a sane x-request-id and makes one up otherwise', async () => {
    const given = await stack.fetch('/api/v1/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const invented = await stack.fetch('/api/v1/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(invented.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses operations deeper than the depth limit', async () => {
    // Each inline fragment is one level to the depth limit; `{ libraryHealth { status } }` is two.
    const nested = (fragments: number) =>
      `{ libraryHealth { ${'... on ServiceHealth { '.repeat(fragments)}status ${'} '.repeat(fragments)}} }`;
    const atLimit = await stack.graphql(nested(GATEWAY_LIMITS.maxDepth - 2));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.data).toEqual({ libraryHealth: { status: 'ok' } });
    const { status, body } = await stack.graphql(nested(GATEWAY_LIMITS.maxDepth - 1));
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(
      new RegExp(`depth limit of ${GATEWAY_LIMITS.maxDepth} exceeded, found ${GATEWAY_LIMITS.maxDepth + 1}`),
    );
  });

  it('refuses operations with more aliases than the alias limit', async () => {
    const aliases = Array.from({ length: GATEWAY_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: libraryHealth { status }`).join(' ');
    const { status, body } = await stack.graphql(`{ ${aliases} }`);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(/aliases/i);
  });

  it('does not suggest field names to clients', async () => {
    const { body } = await stack.graphql('{ libraryHealt { status } }');
    expect(body.errors?.[0]?.message).not.toMatch(/did you mean/i);
  });
});

describe('metrics', () => {
  it('passes promtool check metrics and counts requests by route', async () => {
    await stack.fetch('/api/v1/health/live');
    const response = await stack.fetch('/metrics');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/qantara_http_requests_total\{method="GET",route="\/api\/v1\/health\/live",status="200"\} \d+/);
    expect(text).toMatch(/qantara_graphql_operations_total\{operation="LibraryHealth",type="query",outcome="success"\} \d+/);
    expect(text).toMatch(/qantara_db_pool_connections\{subgraph="library"\} \d+/);
    const file = join(mkdtempSync(join(tmpdir(), 'metrics-')), 'metrics.txt');
    writeFileSync(file, text);
    const output = execFileSync('sh', ['-c', `promtool check metrics < ${file} 2>&1; echo "exit=$?"`], { encoding: 'utf8' });
    expect(output.trim().split('\n').at(-1)).toBe('exit=0');
  });
});
