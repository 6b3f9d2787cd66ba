import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS_ROLES } from '../../contracts/access.js';
import { WEBHOOK_CONTRACTS } from '../../contracts/operations/webhooks.contract.js';
import { SecretBox } from '../../subgraphs/shared/secret-box.js';
import { WebhookDispatcher } from '../../subgraphs/operations/webhooks/webhook-dispatcher.js';
import { createLogger } from '../../runtime/logger.js';
import {
  call,
  commitImport,
  demoEmail,
  fillPath,
  login,
  OPERATIONS_ENV,
  otherOrganization,
  sampleBody,
  type Session,
} from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Webhooks over real HTTP: endpoints and their once-shown secrets, events from the outbox
 * signed the Standard Webhooks way and checked by a loopback receiver with `Webhook.verify`,
 * retries, the delivery log, tenancy, roles and validation, and the dispatcher's guarantees
 * (outbox order, a dropped LISTEN connection, several dispatchers at once).
 */

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A receiver on loopback: records every request; `answers` gives the status per path, call by call. */
class Receiver {
  readonly requests: Received[] = [];
  private readonly answers = new Map<string, number[]>();
  private server: Server | undefined;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.requests.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        const status = this.answers.get(path)?.shift() ?? 200;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `receiver says ${status}` : 'ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  answer(path: string, ...statuses: number[]): void {
    this.answers.set(path, statuses);
  }

  at(path: string): Received[] {
    return this.requests.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

let stack: TestStack;
let admin: Session;
let other: Session;
let db: pg.Client;
const receiver = new Receiver();
const ENDPOINTS = '/api/v1/webhooks/endpoints';

/** Polls until `probe` gives a value; a generous deadline, no timing claim. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, deadlineMs = 45_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
}

async function createEndpoint(session: Session, path: string, eventTypes: string[], extra: Record<string, unknown> = {}) {
  const created = await call(stack, session, 'POST', ENDPOINTS, { url: receiver.url(path), eventTypes, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string; secret: string };
}

async function deliveries(session: Session, endpoint: string) {
  const log = await call(stack, session, 'GET', `${ENDPOINTS}/${endpoint}/deliveries`);
  expect(log.status).toBe(200);
  return log.body.items as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const delivered = (session: Session, endpoint: string, count = 1) =>
  waitFor(`${count} delivered to ${endpoint}`, async () => {
    const items = await deliveries(session, endpoint);
    return items.filter((item) => item.status === 'delivered').length >= count && items;
  });

async function ping(session: Session, endpoint: string): Promise<string> {
  const response = await call(stack, session, 'POST', `${ENDPOINTS}/${endpoint}/ping`);
  expect(response.status).toBe(202);
  return response.body.eventId as string;
}

/** Imports one position in the demo organization: a real domain event (`core.reference-book.imported`). */
async function importPosition(code: string): Promise<string> {
  const preview = await call(stack, admin, 'POST', '/api/v1/hr/positions/import/preview', { rows: [{ code, name: code }] });
  const commit = await commitImport(stack, admin, '/api/v1/hr/positions', preview.body.batchId);
  expect(commit.status).toBe(200);
  return commit.body.eventId as string;
}

const verify = (secret: string, request: Received) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { type: string; timestamp: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  await receiver.start();
  // The receiver lives on loopback, which webhook targets may be only when allowed.
  stack = await startStack({ ...OPERATIONS_ENV, WEBHOOK_ALLOW_PRIVATE: 'true' });
  admin = await login(stack, demoEmail('Admin'));
  other = (await otherOrganization(stack, 'hook-co', 'Hook Co')).admin;
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await stack?.stop();
  await receiver.stop();
});

describe('endpoints', () => {
  it('answers a new endpoint’s whsec_ secret once, stores it sealed, and never shows it in reads, lists or the audit log', async () => {
    const created = await call(stack, admin, 'POST', ENDPOINTS, {
      url: receiver.url('/secret'),
      eventTypes: ['core.*', 'core.*', 'hr.position.updated'],
      description: 'ERP sync',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({ eventTypes: ['core.*', 'hr.position.updated'], description: 'ERP sync', active: true });
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const read = await call(stack, admin, 'GET', `${ENDPOINTS}/${created.body.id}`);
    const list = await call(stack, admin, 'GET', ENDPOINTS);
    const audit = await call(stack, admin, 'GET', `/api/v1/core/audit?entityType=WebhookEndpoint&entityId=${created.body.id}`);
    expect(read.body).toEqual(Object.fromEntries(Object.entries(created.body).filter(([field]) => field !== 'secret')));
    expect(list.body.items.map((item: { id: string }) => item.id)).toContain(created.body.id);
    expect(audit.body.items).toHaveLength(1);
    for (const body of [read.body, list.body, audit.body]) {
      expect(JSON.stringify(body)).not.toContain(secret.slice(6));
      expect(JSON.stringify(body)).not.toMatch(/secret_sealed|"secret"/);
    }
    const { rows } = await db.query<{ secret_sealed: string }>('select secret_sealed from operations.webhook_endpoint where id = $1', [
      created.body.id,
    ]);
    expect(rows[0]!.secret_sealed).toMatch(/^v1\./);
    expect(rows[0]!.secret_sealed).not.toContain(secret.slice(6));
  });

  it('lets a key of the webhooks scope create and read endpoints, and refuses it changing, re-keying, pinging or deleting them', async () => {
    const issued = await call(stack, admin, 'POST', '/api/v1/api-keys', { label: 'hooks-only', scopes: ['webhooks'] });
    expect(issued.status).toBe(201);
    const withKey = (method: string, path: string, body?: unknown) =>
      call(stack, null, method, path, body, { 'x-api-key': issued.body.key });
    const created = await withKey('POST', ENDPOINTS, { url: receiver.url('/by-key'), eventTypes: ['core.*'] });
    expect(created.status).toBe(201);
    const path = `${ENDPOINTS}/${created.body.id}`;
    expect((await withKey('GET', path)).status).toBe(200);
    expect((await withKey('GET', ENDPOINTS)).status).toBe(200);
    expect((await withKey('GET', `${path}/deliveries`)).status).toBe(200);
    for (const [method, target, body] of [
      ['PATCH', path, { description: 'changed by a key' }],
      ['POST', `${path}/rotate-secret`, undefined],
      ['POST', `${path}/ping`, undefined],
      ['DELETE', path, undefined],
    ] as const) {
      const refused = await withKey(method, target, body);
      expect(refused.status, `${method} ${target}`).toBe(403);
      expect(refused.body.code).toBe('API_KEY_SCOPE_MISSING');
    }
    expect((await call(stack, admin, 'GET', path)).body.description).not.toBe('changed by a key');
  });

  it('refuses a bad URL and bad event patterns with 422 and the failing fields', async () => {
    const good = { url: receiver.url('/x'), eventTypes: ['eam.asset.*'] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, url: 'ftp://example.org/hook' }, 'url'],
      [{ ...good, url: 'not a url' }, 'url'],
      [{ ...good, url: 'https://user:password@example.org/hook' }, 'url'],
      [{ ...good, url: `https://example.org/${'a'.repeat(2048)}` }, 'url'],
      [{ ...good, eventTypes: [] }, 'eventTypes'],
      [{ ...good, eventTypes: ['Asset Created'] }, 'eventTypes[0]'],
      [{ ...good, eventTypes: ['eam.asset.*', 'eam.asset.*.created'] }, 'eventTypes[1]'],
      [{ ...good, eventTypes: ['eam.asset.*', 'work_order.v2.closed'] }, 'eventTypes[1]'],
      [{ ...good, eventTypes: ['asset.*'] }, 'eventTypes[0]'],
      [{ ...good, eventTypes: ['**'] }, 'eventTypes[0]'],
      [{ ...good, eventTypes: Array.from({ length: 51 }, () => '*') }, 'eventTypes'],
    ];
    for (const [body, field] of cases) {
      const response = await call(stack, admin, 'POST', ENDPOINTS, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual([field]);
    }
    const endpoint = await createEndpoint(admin, '/valid', ['*']);
    const patch = await call(stack, admin, 'PATCH', `${ENDPOINTS}/${endpoint.id}`, { url: 'javascript:alert(1)' });
    expect(patch.status).toBe(422);
    expect(patch.body.errors).toEqual([{ field: 'url', message: expect.stringContaining('http') }]);
    for (const pattern of ['*', 'eam.asset.*', 'eam.*', 'core.reference-book.imported', 'prd.shift-report.approved']) {
      expect((await call(stack, admin, 'PATCH', `${ENDPOINTS}/${endpoint.id}`, { eventTypes: [pattern] })).status, pattern).toBe(200);
    }
  });

  it('answers 403 to every role but Admin on every webhook route', async () => {
    for (const role of OPERATIONS_ROLES.filter((role) => role !== 'Admin')) {
      const session = await login(stack, demoEmail(role));
      for (const contract of WEBHOOK_CONTRACTS) {
        const binding = contract.rest[0]!;
        const body = binding.method === 'GET' ? undefined : sampleBody(contract);
        const response = await call(stack, session, binding.method, fillPath(binding.path, {}), body);
        expect(response.status, `${contract.name} as ${role}`).toBe(403);
        expect(response.body.code).toBe('ROLE_FORBIDDEN');
      }
    }
  });

  it('answers another organization’s endpoint and delivery exactly as missing ones, on every route', async () => {
    const theirs = await createEndpoint(other, '/theirs', ['*']);
    await ping(other, theirs.id);
    const [delivery] = await waitFor('their ping', async () => {
      const items = await deliveries(other, theirs.id);
      return items.length > 0 && items;
    });
    const mine = await createEndpoint(admin, '/mine', ['*']);
    for (const contract of WEBHOOK_CONTRACTS.filter((contract) => contract.rest[0]!.path.includes(':id'))) {
      const binding = contract.rest[0]!;
      const body = binding.method === 'GET' ? undefined : {};
      const foreign = await call(stack, admin, binding.method, fillPath(binding.path, { id: theirs.id, deliveryId: delivery!.id }), body);
      const missing = await call(stack, admin, binding.method, fillPath(binding.path, {}), body);
      expect(foreign.status, contract.name).toBe(404);
      expect({ ...foreign.body, instance: undefined }, contract.name).toEqual({ ...missing.body, instance: undefined });
    }
    // Their delivery under my endpoint is as missing as an unknown one too.
    const retry = (deliveryId: string) => call(stack, admin, 'POST', `${ENDPOINTS}/${mine.id}/deliveries/${deliveryId}/retry`);
    const [foreign, missing] = [await retry(delivery!.id), await retry(randomUUID())];
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, instance: undefined }).toEqual({ ...missing.body, instance: undefined });
    expect((await call(stack, other, 'GET', `${ENDPOINTS}/${theirs.id}`)).status).toBe(200);
  });

  it('rotates the secret: the new one is answered once, and for a day deliveries verify with either', async () => {
    const endpoint = await createEndpoint(admin, '/rotate', ['webhook.ping']);
    const rotated = await call(stack, admin, 'POST', `${ENDPOINTS}/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(rotated.body.secretRotatedAt).toEqual(expect.any(String));
    await ping(admin, endpoint.id);
    const [request] = await waitFor('the ping after rotation', async () => receiver.at('/rotate').length > 0 && receiver.at('/rotate'));
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated.body.secret, request!).type).toBe('webhook.ping');
    expect(verify(endpoint.secret, request!).type).toBe('webhook.ping');
  });

  it('sends no new events to an inactive endpoint, and drops a deleted endpoint with its log', async () => {
    const active = await createEndpoint(admin, '/still-active', ['core.reference-book.imported']);
    const paused = await createEndpoint(admin, '/paused', ['core.reference-book.imported']);
    const patched = await call(stack, admin, 'PATCH', `${ENDPOINTS}/${paused.id}`, { active: false, description: 'paused' });
    expect(patched.body).toMatchObject({ active: false, description: 'paused', eventTypes: ['core.reference-book.imported'] });
    const eventId = await importPosition('PAUSED-1');
    await delivered(admin, active.id);
    // Both fan-outs of one event are one transaction: the active endpoint's delivery exists, so the paused one was decided.
    expect(await deliveries(admin, paused.id)).toEqual([]);
    expect(receiver.at('/paused')).toEqual([]);
    expect((await deliveries(admin, active.id))[0]).toMatchObject({ eventId, eventType: 'core.reference-book.imported' });

    const removed = await call(stack, admin, 'DELETE', `${ENDPOINTS}/${active.id}`);
    expect(removed.body).toEqual({ id: active.id, deleted: true });
    expect((await call(stack, admin, 'GET', `${ENDPOINTS}/${active.id}`)).status).toBe(404);
    expect((await call(stack, admin, 'GET', `${ENDPOINTS}/${active.id}/deliveries`)).status).toBe(404);
    const { rows } = await db.query('select 1 from operations.webhook_delivery where endpoint_id = $1', [active.id]);
    expect(rows).toEqual([]);
  });
  it('refuses an organization’s 51st endpoint with 409 WEBHOOK_ENDPOINT_LIMIT_REACHED', async () => {
    const existing = (await call(stack, other, 'GET', `${ENDPOINTS}?limit=100`)).body.items.length as number;
    const made: string[] = [];
    for (let index = existing; index < 50; index += 1) made.push((await createEndpoint(other, '/limit', ['webhook.ping'])).id);
    const refused = await call(stack, other, 'POST', ENDPOINTS, { url: receiver.url('/limit'), eventTypes: ['webhook.ping'] });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('WEBHOOK_ENDPOINT_LIMIT_REACHED');
    for (const id of made) expect((await call(stack, other, 'DELETE', `${ENDPOINTS}/${id}`)).status).toBe(200);
  });
});

describe('delivery', () => {
  it('delivers a committed reference-book import, signed so Webhook.verify accepts it and only with the endpoint’s secret', async () => {
    const subscribed = await createEndpoint(admin, '/imports', ['core.*']);
    const everything = await createEndpoint(admin, '/everything', ['*']);
    const elsewhere = await createEndpoint(admin, '/elsewhere', ['eam.*', 'core.production-object.deleted']);
    const theirs = await createEndpoint(other, '/other-organization', ['*']);
    const eventId = await importPosition('HOOK-1');

    const [request] = await waitFor('the import event', async () => receiver.at('/imports').length > 0 && receiver.at('/imports'));
    expect(request!.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': eventId });
    const message = verify(subscribed.secret, request!);
    expect(message).toMatchObject({ type: 'core.reference-book.imported', data: { book: 'positions', mode: 'merge', applied: 1 } });
    expect(Date.parse(message.timestamp)).not.toBeNaN();

    // The test can fail: another secret, a changed body, or a changed id do not verify.
    expect(() => verify(theirs.secret, request!)).toThrow(WebhookVerificationError);
    expect(() =>
      verify(subscribed.secret, { ...request!, body: request!.body.replace('HOOK', 'HACK').replace('"applied":1', '"applied":2') }),
    ).toThrow(WebhookVerificationError);
    expect(() => verify(subscribed.secret, { ...request!, headers: { ...request!.headers, 'webhook-id': randomUUID() } })).toThrow(
      WebhookVerificationError,
    );

    const [entry] = await delivered(admin, subscribed.id);
    expect(entry).toMatchObject({
      eventId,
      status: 'delivered',
      attempts: 1,
      lastResponseStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    await delivered(admin, everything.id);
    expect(await deliveries(admin, elsewhere.id)).toEqual([]);
    // The other organization's endpoint takes every event type, but never this organization's.
    expect(await deliveries(other, theirs.id)).toEqual([]);
    expect(receiver.at('/other-organization')).toEqual([]);
  });

  it('sends a ping to the pinged endpoint alone', async () => {
    const pinged = await createEndpoint(admin, '/pinged', ['hr.brigade.created'], { active: false });
    const bystander = await createEndpoint(admin, '/bystander', ['*']);
    const eventId = await ping(admin, pinged.id);
    const [entry] = await delivered(admin, pinged.id);
    expect(entry).toMatchObject({ eventId, eventType: 'webhook.ping' });
    expect(verify(pinged.secret, receiver.at('/pinged')[0]!).data).toEqual({ endpointId: pinged.id });
    expect(await deliveries(admin, bystander.id)).toEqual([]);
  });

  it('retries a receiver that answered 500, with the same webhook-id, and logs attempt 2 as delivered', async () => {
    receiver.answer('/flaky', 500, 204);
    const endpoint = await createEndpoint(admin, '/flaky', ['webhook.ping']);
    const eventId = await ping(admin, endpoint.id);
    const [failed] = await waitFor('the first attempt', async () => {
      const items = await deliveries(admin, endpoint.id);
      return items[0]?.attempts === 1 && items[0]?.lastResponseStatus === 500 && items;
    });
    expect(failed).toMatchObject({ status: 'pending', lastError: 'HTTP 500: receiver says 500', deliveredAt: null });
    expect(Date.parse(failed!.nextAttemptAt) - Date.parse(failed!.lastAttemptAt)).toBeGreaterThanOrEqual(5000);

    const [entry] = await delivered(admin, endpoint.id);
    expect(entry).toMatchObject({ eventId, status: 'delivered', attempts: 2, lastResponseStatus: 204, lastError: null });
    expect(entry!.deliveredAt).toEqual(expect.any(String));
    const requests = receiver.at('/flaky');
    expect(requests.map((request) => request.headers['webhook-id'])).toEqual([eventId, eventId]);
    for (const request of requests) expect(verify(endpoint.secret, request).type).toBe('webhook.ping');
  });

  it('follows the retry schedule, fails after the 8th attempt, and re-queues a failed delivery for one more', async () => {
    receiver.answer('/down', 503, 503, 503);
    const endpoint = await createEndpoint(admin, '/down', ['webhook.ping']);
    await ping(admin, endpoint.id);
    const [first] = await waitFor('the first attempt', async () => {
      const items = await deliveries(admin, endpoint.id);
      return items[0]?.attempts === 1 && items[0].lastResponseStatus === 503 && items;
    });
    // Skip ahead in the schedule: the next failure is the 7th (10 hours to the 8th), then the 8th is final.
    // Direct writes wake the dispatcher as the API's do, rather than leave it to the slow poll.
    const due = async (attempts: number) => {
      await db.query('update operations.webhook_delivery set attempts = $2, next_attempt_at = now() where id = $1', [first!.id, attempts]);
      await db.query(`select pg_notify('operations_events', 'test')`);
    };
    await due(6);
    // While an attempt is in flight its lease (a minute) shows as the next attempt; then the schedule's wait does.
    const waitAfter = (item: Record<string, string>) => Date.parse(item.nextAttemptAt!) - Date.parse(item.lastAttemptAt!);
    const [seventh] = await waitFor('the 7th attempt', async () => {
      const items = await deliveries(admin, endpoint.id);
      return items[0]?.attempts === 7 && waitAfter(items[0]) > 120_000 && items;
    });
    const wait = waitAfter(seventh!);
    expect(seventh!.lastResponseStatus).toBe(503);
    expect(wait).toBeGreaterThanOrEqual(36_000_000);
    expect(wait).toBeLessThan(36_060_000);
    await due(7);
    const [failed] = await waitFor('the final failure', async () => {
      const items = await deliveries(admin, endpoint.id);
      return items[0]?.status === 'failed' && items;
    });
    expect(failed).toMatchObject({ attempts: 8, lastResponseStatus: 503, nextAttemptAt: null, deliveredAt: null });

    const retried = await call(stack, admin, 'POST', `${ENDPOINTS}/${endpoint.id}/deliveries/${first!.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: first!.id, status: 'pending', attempts: 8 });
    const [entry] = await delivered(admin, endpoint.id);
    expect(entry).toMatchObject({ status: 'delivered', attempts: 9, lastResponseStatus: 200 });
    const again = await call(stack, admin, 'POST', `${ENDPOINTS}/${endpoint.id}/deliveries/${first!.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('STATE_CONFLICT');
  });

  it('lists the delivery log newest first, a page at a time, filtered by status', async () => {
    const endpoint = await createEndpoint(admin, '/log', ['webhook.ping']);
    const events = [];
    for (let index = 0; index < 3; index += 1) events.push(await ping(admin, endpoint.id));
    await delivered(admin, endpoint.id, 3);
    const first = await call(stack, admin, 'GET', `${ENDPOINTS}/${endpoint.id}/deliveries?limit=2`);
    const second = await call(stack, admin, 'GET', `${ENDPOINTS}/${endpoint.id}/deliveries?limit=2&cursor=${first.body.nextCursor}`);
    expect([...first.body.items, ...second.body.items].map((item: { eventId: string }) => item.eventId)).toEqual(events.reverse());
    expect(second.body.nextCursor).toBeNull();
    expect((await call(stack, admin, 'GET', `${ENDPOINTS}/${endpoint.id}/deliveries?status=failed`)).body.items).toEqual([]);
  });
});

describe('dispatcher', () => {
  it('keeps outbox order: an event committed after a later one is still delivered, and a rolled-back number is passed over', async () => {
    const endpoint = await createEndpoint(admin, '/order', ['webhook.ping', 'scm.fuel.tank.low-stock']);
    const slow = new pg.Client({ connectionString: stack.databaseUrl });
    await slow.connect();
    try {
      const insert = `insert into operations.outbox_event (type, organization_id, payload) values ('scm.fuel.tank.low-stock', $1, '{}') returning id`;
      await slow.query('begin');
      const { rows } = await slow.query<{ id: string }>(insert, [admin.organizationId]);
      const pinged = await ping(admin, endpoint.id);
      await sleep(1500);
      // The ping's number is higher than the open transaction's: the cursor waits at the gap.
      expect(await deliveries(admin, endpoint.id)).toEqual([]);
      await slow.query('commit');
      const items = await delivered(admin, endpoint.id, 2);
      expect(items.map((item) => item.eventId)).toEqual([pinged, rows[0]!.id]);

      await slow.query('begin');
      await slow.query(insert, [admin.organizationId]);
      await slow.query('rollback');
      const after = await ping(admin, endpoint.id);
      expect((await delivered(admin, endpoint.id, 3))[0]!.eventId).toBe(after);
    } finally {
      await slow.end();
    }
  });

  it('opens a new LISTEN connection when the database drops it, and keeps delivering', async () => {
    const listeners = async () =>
      (
        await db.query<{ pid: number }>(
          `select pid from pg_stat_activity where application_name = 'qantara-webhooks-listener' and datname = current_database()`,
        )
      ).rows.map((row) => row.pid);
    const [before] = await waitFor('the listener', async () => {
      const pids = await listeners();
      return pids.length > 0 && pids;
    });
    await db.query('select pg_terminate_backend($1)', [before]);
    await waitFor('a new listener', async () => (await listeners()).some((pid) => pid !== before));
    const endpoint = await createEndpoint(admin, '/after-reconnect', ['webhook.ping']);
    const eventId = await ping(admin, endpoint.id);
    expect((await delivered(admin, endpoint.id))[0]!.eventId).toBe(eventId);
  });

  it('fans out and sends every event exactly once with several dispatchers running', async () => {
    const second = new WebhookDispatcher(stack.databaseUrl, SecretBox.fromConfig(stack.config), createLogger('silent'), {
      concurrency: 4,
      allowPrivate: true,
    });
    second.start();
    try {
      const endpoint = await createEndpoint(admin, '/shared', ['webhook.ping']);
      const events = await Promise.all(Array.from({ length: 30 }, () => ping(admin, endpoint.id)));
      const items = await delivered(admin, endpoint.id, 30);
      expect(items.every((item) => item.attempts === 1)).toBe(true);
      const ids = receiver.at('/shared').map((request) => request.headers['webhook-id']);
      expect(ids).toHaveLength(30);
      expect(new Set(ids)).toEqual(new Set(events));
    } finally {
      await second.stop();
    }
  });
});
