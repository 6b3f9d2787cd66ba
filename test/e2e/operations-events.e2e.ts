import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { OPERATIONS_EVENTS } from '../../contracts/operations/events/catalog.js';
import { Actors } from '../support/actors.js';
import { AssetBuilder, drillRigs } from '../support/eam.js';

/**
 * Domain events over real HTTP: declared once, published by the pipeline through the outbox,
 * listed by the AsyncAPI document, delivered to webhooks subscribed by pattern; and the
 * approvers of a submitted fuel supply request notified in the app and by mail.
 */

let actors: Actors;
let dataDir: string;
let server: Server;
const received: Array<{ path: string; headers: Record<string, string>; body: string }> = [];
const ENDPOINTS = '/api/v1/webhooks/endpoints';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const receiverUrl = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false): Promise<T> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '/',
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  dataDir = await mkdtemp(join(tmpdir(), 'qantara-events-'));
  // The receiver is on loopback, which webhook targets may be only when allowed; mail is written under DATA_DIR/mail.
  actors = await Actors.start({ WEBHOOK_ALLOW_PRIVATE: 'true', DATA_DIR: dataDir });
});
afterAll(async () => {
  await actors?.stop();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('AsyncAPI document', () => {
  it('is public AsyncAPI 3.0.0 with a channel, a message and a receive operation for every declared event type', async () => {
    const response = await actors.stack.fetch('/api/v1/asyncapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as Json;
    expect(document.asyncapi).toBe('3.0.0');
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const names = OPERATIONS_EVENTS.map((event) => event.name);
    expect(names.length).toBeGreaterThan(50);
    expect(
      Object.values(document.channels)
        .map((channel: Json) => channel.address)
        .sort(),
    ).toEqual([...names].sort());
    for (const name of names) {
      const channel = document.channels[name];
      const [reference] = Object.values(channel.messages) as Array<{ $ref: string }>;
      const message = document.components.messages[reference!.$ref.replace('#/components/messages/', '')];
      expect(message, name).toMatchObject({ name, payload: { type: 'object', properties: { type: { const: name } } } });
      expect(message.payload.properties.data, name).toEqual(expect.any(Object));
      expect(document.operations[name], name).toMatchObject({ action: 'receive', channel: { $ref: `#/channels/${name}` } });
      expect(document.operations[name].messages[0].$ref).toBe(`#/channels/${name}/messages/${name}`);
    }
    // Every reference resolves inside the document.
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(names.length);
    for (const ref of refs) {
      const target = ref.split('/').reduce<Json>((node, part) => node?.[part.replaceAll('~1', '/')], document);
      expect(target, ref).toBeDefined();
    }
    // The asset event's payload is the asset as the operation answers it.
    const asset = document.components.messages['eam.asset.created'].payload.properties.data;
    const resolved = asset.$ref ? document.components.schemas[asset.$ref.replace('#/components/schemas/', '')] : asset;
    expect(Object.keys(resolved.properties)).toEqual(expect.arrayContaining(['id', 'inventoryNumber', 'status']));
  });
});

describe('webhook subscriptions', () => {
  it('refuses a pattern that matches no declared event type with 422 naming the field', async () => {
    for (const [eventTypes, field] of [
      [['eam.asset.*', 'eam.assets.*'], 'eventTypes[1]'],
      [['asset.*'], 'eventTypes[0]'],
      [['eam.asset.exploded'], 'eventTypes[0]'],
    ] as const) {
      const response = await actors.act('Admin', 'POST', ENDPOINTS, { url: receiverUrl('/refused'), eventTypes });
      expect(response.status, JSON.stringify(eventTypes)).toBe(422);
      expect(response.body.errors).toEqual([{ field, message: expect.stringContaining('no declared event type') }]);
    }
    for (const eventTypes of [['*'], ['eam.*'], ['eam.asset.*'], ['eam.asset.created']]) {
      const response = await actors.act('Admin', 'POST', ENDPOINTS, { url: receiverUrl('/accepted'), eventTypes, active: false });
      expect(response.status, JSON.stringify(eventTypes)).toBe(201);
    }
  });

  it('delivers the event of an asset creation to an endpoint subscribed to eam.asset.*, with the asset as data', async () => {
    const endpoint = await actors.act('Admin', 'POST', ENDPOINTS, { url: receiverUrl('/assets'), eventTypes: ['eam.asset.*'] });
    const maintenance = await actors.act('Admin', 'POST', ENDPOINTS, {
      url: receiverUrl('/maintenance'),
      eventTypes: ['eam.maintenance.*'],
    });
    expect(endpoint.status).toBe(201);
    const asset = await new AssetBuilder(actors, { ...drillRigs(101), prefix: 'EV' }).create();

    const request = await waitFor('the asset event', () => received.find((entry) => entry.path === '/assets'));
    const message = new Webhook(endpoint.body.secret).verify(request.body, request.headers) as { type: string; data: unknown };
    expect(message.type).toBe('eam.asset.created');
    expect(message.data).toEqual(asset);
    // The asset class event matches neither pattern; maintenance saw nothing.
    const log = await actors.act('Admin', 'GET', `${ENDPOINTS}/${maintenance.body.id}/deliveries`);
    expect(log.body.items).toEqual([]);
    const events = await actors.events('eam.asset.created');
    expect(events).toEqual([{ organization_id: actors.sessions.get('Engineer')!.organizationId, payload: asset }]);
  });

  it('publishes nothing for a refused call, and nothing again for a replayed one', async () => {
    const before = (await actors.events('eam.asset-class.created')).length;
    const key = { 'idempotency-key': crypto.randomUUID() };
    const body = { code: 'TRUCK', name: 'Самосвалы' };
    expect((await actors.act('Engineer', 'POST', '/api/v1/eam/asset-classes', body, key)).status).toBe(201);
    expect((await actors.act('Engineer', 'POST', '/api/v1/eam/asset-classes', body, key)).headers.get('idempotent-replayed')).toBe('true');
    expect((await actors.act('Engineer', 'POST', '/api/v1/eam/asset-classes', body)).status).toBe(409);
    expect(await actors.events('eam.asset-class.created')).toHaveLength(before + 1);
  });
});

describe('notifications', () => {
  const notifications = async (role: OperationsRole, query = '') => {
    const response = await actors.act(role, 'GET', `/api/v1/iam/notifications${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.items as Array<{ id: string; type: string; data: Record<string, unknown>; readAt: string | null }>;
  };
  const mails = async () => {
    const files = await readdir(join(dataDir, 'mail')).catch(() => [] as string[]);
    return Promise.all(files.filter((file) => file.endsWith('.eml')).map((file) => readFile(join(dataDir, 'mail', file), 'utf8')));
  };
  let tankId = '';

  async function submitRequest(): Promise<string> {
    tankId ||= (
      await actors.act('Admin', 'POST', '/api/v1/scm/fuel/tanks', {
        objectId: actors.north,
        code: 'DT-EVENTS',
        capacityLiters: 60_000,
        minLevelLiters: 5000,
        initialBalanceLiters: 8000,
      })
    ).body.id;
    const created = await actors.act('Foreman', 'POST', '/api/v1/scm/fuel/supply-requests', {
      tankId,
      requestedVolumeLiters: 5000,
      desiredDeliveryDate: '2026-12-15',
      justification: 'Запас на декаду',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await actors.act('Foreman', 'POST', `/api/v1/scm/fuel/supply-requests/${created.body.id}/submit`, {})).status).toBe(200);
    return created.body.id as string;
  }

  it('notifies the approvers of a submitted fuel supply request in the app and by mail, and no one else', async () => {
    const id = await submitRequest();
    for (const role of ['CEO', 'Engineer'] as const) {
      const items = await notifications(role);
      expect(items[0], role).toMatchObject({ type: 'scm.fuel.supply-request.submitted', data: { supplyRequestId: id }, readAt: null });
    }
    for (const role of ['Foreman', 'Supply', 'Admin', 'Mechanic', 'OtibSpecialist'] as const)
      expect(await notifications(role), role).toEqual([]);
    const written = await waitFor('the approvers’ mails', async () => {
      const all = (await mails()).filter((mail) => mail.includes(id));
      return all.length >= 2 && all;
    });
    const recipients = written.map((mail) => /^To: (.+)$/m.exec(mail)?.[1]?.trim()).sort();
    expect(recipients).toEqual(['ceo@demo.qantara.local', 'engineer@demo.qantara.local']);
  });

  it('reads the approvers from the roles book: a role granted approval is notified from then on', async () => {
    const book = (await actors.act('Admin', 'GET', '/api/v1/hr/system-roles')).body as Array<{
      id: string;
      code: string;
      permissions: string[];
    }>;
    const supply = book.find((role) => role.code === 'Supply')!;
    const granted = await actors.act('Admin', 'PATCH', `/api/v1/hr/system-roles/${supply.id}`, {
      permissions: [...supply.permissions, 'scmApproveFuelSupplyRequest'],
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    const id = await submitRequest();
    expect((await notifications('Supply')).map((item) => item.data.supplyRequestId)).toEqual([id]);
  });

  it('marks a notification read for its user only: another user gets 404 and an unknown id 404', async () => {
    const [item] = await notifications('CEO');
    const foreign = await actors.act('Engineer', 'POST', `/api/v1/iam/notifications/${item!.id}/read`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('RECORD_NOT_FOUND');
    expect((await actors.act('CEO', 'POST', `/api/v1/iam/notifications/${crypto.randomUUID()}/read`, {})).status).toBe(404);
    const read = await actors.act('CEO', 'POST', `/api/v1/iam/notifications/${item!.id}/read`, {});
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: item!.id, readAt: expect.any(String) });
    const again = await actors.act('CEO', 'POST', `/api/v1/iam/notifications/${item!.id}/read`, {});
    expect(again.body.readAt).toBe(read.body.readAt);
    expect((await notifications('CEO', '?unread=true')).map((entry) => entry.id)).not.toContain(item!.id);
    expect((await notifications('CEO')).find((entry) => entry.id === item!.id)?.readAt).toBe(read.body.readAt);
    expect((await notifications('Engineer')).every((entry) => entry.readAt === null)).toBe(true);
  });
});
