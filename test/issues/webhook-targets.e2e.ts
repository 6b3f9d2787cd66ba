import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { call, demoEmail, login, OPERATIONS_ENV, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Webhook targets on internal addresses (server-side request forgery): refused at creation
 * and at every delivery unless `WEBHOOK_ALLOW_PRIVATE` is set. Only loopback forms are tried,
 * and a refused target is never connected to (a loopback receiver counts what reaches it).
 */

const ENDPOINTS = '/api/v1/webhooks/endpoints';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Server;
let received = 0;
let receiverPort = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = createServer((_request, response) => {
    received += 1;
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.drop();
});

describe('webhook targets', () => {
  let allowed: TestStack;
  let endpointId: string;

  it('accepts a loopback target with WEBHOOK_ALLOW_PRIVATE=true and delivers to it', async () => {
    allowed = await startStack({ ...OPERATIONS_ENV, DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE: 'true' });
    try {
      const admin = await login(allowed, demoEmail('Admin'));
      const created = await call(allowed, admin, 'POST', ENDPOINTS, {
        url: `http://127.0.0.1:${receiverPort}/hook`,
        eventTypes: ['webhook.ping'],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      endpointId = created.body.id as string;
      expect((await call(allowed, admin, 'POST', `${ENDPOINTS}/${endpointId}/ping`)).status).toBe(202);
      const deadline = Date.now() + 45_000;
      while (received === 0 && Date.now() < deadline) await sleep(150);
      expect(received).toBe(1);
    } finally {
      await allowed.stop();
    }
  });

  describe('with WEBHOOK_ALLOW_PRIVATE off', () => {
    let stack: TestStack;
    let admin: Session;
    beforeAll(async () => {
      stack = await startStack({ ...OPERATIONS_ENV, DATABASE_URL: database.url });
      admin = await login(stack, demoEmail('Admin'));
    });
    afterAll(async () => {
      await stack?.stop();
    });

    it.each([
      'http://127.0.0.1:9/hook',
      'http://localhost:8080/hook',
      'http://[::1]:8080/hook',
      'http://0.0.0.0:8080/hook',
      'http://2130706433/hook',
      'http://[::ffff:127.0.0.1]:8080/hook',
      'http://0x7f.1/hook',
    ])('refuses to create an endpoint for %s with a 422 naming url', async (url) => {
      const response = await call(stack, admin, 'POST', ENDPOINTS, { url, eventTypes: ['*'] });
      expect(response.status).toBe(422);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', status: 422 });
      expect(JSON.stringify(response.body)).toMatch(/"url"/);
      expect(JSON.stringify(response.body)).toMatch(/internal address/);
    });

    it('refuses to move an existing endpoint to a loopback target', async () => {
      const response = await call(stack, admin, 'PATCH', `${ENDPOINTS}/${endpointId}`, { url: 'http://127.0.0.1:9/elsewhere' });
      expect(response.status).toBe(422);
      expect(JSON.stringify(response.body)).toMatch(/"url"/);
    });

    it('never calls an endpoint created while allowed, and records the delivery as failed with the reason', async () => {
      const before = received;
      expect((await call(stack, admin, 'POST', `${ENDPOINTS}/${endpointId}/ping`)).status).toBe(202);
      const deadline = Date.now() + 45_000;
      let failed: Record<string, unknown> | undefined;
      while (!failed && Date.now() < deadline) {
        const log = await call(stack, admin, 'GET', `${ENDPOINTS}/${endpointId}/deliveries?status=failed`);
        failed = (log.body.items as Array<Record<string, unknown>>)[0];
        if (!failed) await sleep(150);
      }
      expect(failed).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastResponseStatus: null,
        lastError: `target refused: 127.0.0.1, a loopback address`,
      });
      expect(received).toBe(before);
    });
  });
});
