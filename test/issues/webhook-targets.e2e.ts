import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
/** The same receiver on ::1, where the host has IPv6 loopback (a name for loopback may resolve there first). */
let receiverV6: Server | undefined;
const received: string[] = [];
let receiverPort = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    received.push(request.url ?? '/');
    response.writeHead(204).end();
  };
  receiver = createServer(handler);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
  const v6 = createServer(handler);
  receiverV6 = await new Promise<Server | undefined>((resolve) => {
    v6.once('error', () => resolve(undefined));
    v6.listen(receiverPort, '::1', () => resolve(v6));
  });
});
afterAll(async () => {
  for (const server of [receiver, receiverV6]) {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  }
  await database?.drop();
});

describe('webhook targets', () => {
  let allowed: TestStack;
  let endpointId: string;

  it('accepts loopback targets, by address and by name, with WEBHOOK_ALLOW_PRIVATE=true and delivers to them', async () => {
    allowed = await startStack({ ...OPERATIONS_ENV, DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE: 'true' });
    try {
      const admin = await login(allowed, demoEmail('Admin'));
      const create = async (url: string) => {
        const created = await call(allowed, admin, 'POST', ENDPOINTS, { url, eventTypes: ['webhook.ping'] });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const id = created.body.id as string;
        expect((await call(allowed, admin, 'POST', `${ENDPOINTS}/${id}/ping`)).status).toBe(202);
        return id;
      };
      endpointId = await create(`http://127.0.0.1:${receiverPort}/hook`);
      // A name is resolved, checked, and connected to at the address that was checked.
      await create(`http://localhost:${receiverPort}/named`);
      const deadline = Date.now() + 45_000;
      while (received.length < 2 && Date.now() < deadline) await sleep(150);
      expect([...received].sort()).toEqual(['/hook', '/named']);
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
      const before = received.length;
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
      expect(received.length).toBe(before);
    });
  });
});
