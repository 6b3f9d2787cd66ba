import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoEmail } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Defaults that must not look healthier or more open than they are: no demo users (with their
 * published password) or demo workspace on an external database unless asked for, and
 * readiness that checks the document store and tells the built-in scanner apart from ClamAV.
 */

interface Readiness {
  status: string;
  info: Record<string, { status: string; message?: string }>;
  error: Record<string, { status: string; message?: string }>;
}

describe('on an external database, without DEMO_* set', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // The test stack always names its database with DATABASE_URL, as a deployment does.
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('creates no demo users, so the published demo password signs nobody in', async () => {
    const response = await stack.fetch('/api/v1/iam/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demoEmail('Admin'), password: DEMO_PASSWORD }),
    });
    expect(response.status).toBe(401);
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const users = await client.query(`select 1 from operations.app_user where "email" like '%@demo.qantara.local'`);
      expect(users.rowCount).toBe(0);
      const workspaces = await client.query(`select 1 from research.workspace where "kind" = 'demo'`);
      expect(workspaces.rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('reports the built-in scanner as degraded, naming its one signature, and stays ready', async () => {
    const response = await stack.fetch('/api/v1/health/ready');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Readiness;
    expect(body.status).toBe('ok');
    expect(body.info.virusScanner).toEqual({ status: 'degraded', message: expect.stringMatching(/only the EICAR test signature/) });
    expect(body.info.objectStorage).toEqual({ status: 'up' });
    const graphql = await stack.graphql('{ operationsHealth { status components { name up status detail } } }');
    expect(graphql.body.data).toMatchObject({
      operationsHealth: {
        status: 'ok',
        components: expect.arrayContaining([
          { name: 'virusScanner', up: true, status: 'degraded', detail: expect.stringContaining('EICAR') },
          { name: 'objectStorage', up: true, status: 'up', detail: expect.stringContaining('writable') },
        ]),
      },
    });
  });
});

describe('with a local document store that cannot be written', () => {
  let stack: TestStack;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qantara-unwritable-'));
    // A file where the store's directory belongs: no directory can be made or written there, whoever runs the test.
    writeFileSync(join(dataDir, 'documents'), 'not a directory');
    stack = await startStack({ DATA_DIR: dataDir, SECRETS_KEY: 'a'.repeat(64) });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers readiness 503 with the document store down and why', async () => {
    const response = await stack.fetch('/api/v1/health/ready');
    expect(response.status).toBe(503);
    const body = (await response.json()) as Readiness;
    expect(body.status).toBe('error');
    expect(body.error.objectStorage).toEqual({ status: 'down', message: expect.stringMatching(/EEXIST|ENOTDIR/) });
  });
});
