import { expect } from 'vitest';
import { call } from '../operations.js';
import type { ForeignRecords } from './types.js';

/** An endpoint of the other organization (to a port nothing listens on) and the delivery of its ping. */
export const webhookForeignRecords: ForeignRecords = async (context) => {
  const created = await call(context.stack, context.admin, 'POST', '/api/v1/webhooks/endpoints', {
    url: 'http://127.0.0.1:9/unreachable',
    eventTypes: ['*'],
  });
  expect(created.status).toBe(201);
  const endpoint = created.body.id as string;
  expect((await call(context.stack, context.admin, 'POST', `/api/v1/webhooks/endpoints/${endpoint}/ping`)).status).toBe(202);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const log = await call(context.stack, context.admin, 'GET', `/api/v1/webhooks/endpoints/${endpoint}/deliveries`);
    if (log.body.items?.length) return { '/api/v1/webhooks/endpoints': endpoint, deliveryId: log.body.items[0].id as string };
    if (Date.now() > deadline) throw new Error('the ping of the foreign webhook endpoint was never fanned out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};
