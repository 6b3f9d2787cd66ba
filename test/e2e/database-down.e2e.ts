import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../runtime/embedded-postgres.js';
import { startStack, type TestStack } from '../support/stack.js';

let dir: string;
let postgres: EmbeddedDatabase;
let stack: TestStack;

/** A PostgreSQL server of this suite's own, so stopping it touches no other suite. */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qantara-down-'));
  postgres = await startEmbeddedPostgres(join(dir, 'pg'));
  // No queue consumers: the subject is what health reports, and BullMQ's PostgreSQL backend
  // retries a vanished database without pause once its wait is cancelled (docs/adr/0019).
  stack = await startStack({ DATABASE_URL: postgres.url, QUEUE_CONSUMERS: 'false' });
});

afterAll(async () => {
  await stack?.stop();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('when PostgreSQL stops', () => {
  it('readiness and deep check go from 200 to 503 naming the database', async () => {
    expect((await stack.fetch('/api/v1/health/ready')).status).toBe(200);
    await postgres.stop();
    for (const path of ['/api/v1/health/ready', '/api/v1/health/deep']) {
      const response = await stack.fetch(path);
      expect(response.status).toBe(503);
      const body = (await response.json()) as {
        status: string;
        error: Record<string, { status: string }>;
        details: Record<string, unknown>;
      };
      expect(body.status).toBe('error');
      expect(body.error.database?.status).toBe('down');
      expect(Object.keys(body.details)).toContain('database');
    }
  });

  it('liveness still answers 200', async () => {
    expect((await stack.fetch('/api/v1/health/live')).status).toBe(200);
  });

  it('library /healthz answers 503 in the library error shape', async () => {
    const response = await stack.fetch('/healthz');
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(Object.keys(body.error).sort()).toEqual(['code', 'details', 'message', 'param', 'type']);
    expect(body.error.type).toBe('service_unavailable');
  });

  it('research /health answers 503 with its component states', async () => {
    const response = await stack.fetch('/health');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'down', components: { database: { status: 'down' } } });
  });
});
