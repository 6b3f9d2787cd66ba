import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { Actors } from '../support/actors.js';
import { AssetBuilder, drillRigs } from '../support/eam.js';
import { addMember, createOrganization, idempotencyKey, login, SUPER_ADMIN } from '../support/operations.js';

/** Movement actions of assets, decommissioning with a second approver, and the movements journal, over REST. */

let actors: Actors;
let assets: AssetBuilder;
const newAsset = (objectId = actors.north, overrides: Record<string, unknown> = {}) => assets.create(objectId, overrides);

beforeAll(async () => {
  actors = await Actors.start();
  assets = new AssetBuilder(actors, drillRigs(500));
});
afterAll(async () => {
  await actors?.stop();
});

const assetAction = (role: OperationsRole, id: string, verb: string, body: unknown = {}) =>
  actors.act(role, 'POST', `/api/v1/eam/assets/${id}/${verb}`, body);
const journal = async (query: string) => (await actors.act('CEO', 'GET', `/api/v1/eam/movements?${query}`)).body;

describe('movement actions', () => {
  it('moves an operational asset to another object, journaled as transfer_audit (409 when already there)', async () => {
    const asset = await newAsset(actors.north);
    const moved = await assetAction('Engineer', asset.id, 'move', { toObjectId: actors.south, reason: 'Перевод на южный карьер' });
    expect(moved.body).toMatchObject({ status: 'operational', currentObjectId: actors.south });
    const again = await assetAction('Admin', asset.id, 'move', { toObjectId: actors.south });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ASSET_ALREADY_AT_OBJECT');
    const entries = await journal(`assetId=${asset.id}`);
    expect(entries.items).toEqual([
      expect.objectContaining({
        op: 'transfer_audit',
        status: 'applied',
        fromObjectId: actors.north,
        toObjectId: actors.south,
        actorId: actors.userId('Engineer'),
        reason: 'Перевод на южный карьер',
      }),
    ]);
    expect(Date.parse(entries.items[0].occurredAt)).not.toBeNaN();
  });

  it('lets a Mechanic move only between their own objects (another object is not found)', async () => {
    const asset = await newAsset(actors.north);
    const response = await assetAction('Mechanic', asset.id, 'move', { toObjectId: actors.south });
    expect(response.status).toBe(404);
    expect((await actors.act('CEO', 'GET', `/api/v1/eam/assets/${asset.id}`)).body.currentObjectId).toBe(actors.north);
  });

  it('conserves an operational asset and returns it (operational ⇄ conserved); nothing else moves a conserved asset', async () => {
    const asset = await newAsset(actors.north);
    expect((await assetAction('Mechanic', asset.id, 'conserve', { reason: 'x' })).status).toBe(422);
    expect((await assetAction('Mechanic', asset.id, 'conserve', { reason: 'Сезонная консервация' })).body.status).toBe('conserved');
    for (const [verb, body] of [
      ['conserve', { reason: 'again' }],
      ['move', { toObjectId: actors.south }],
      ['send-to-maintenance', { reason: 'service' }],
      ['to-repair', { reason: 'broken' }],
      ['from-repair', {}],
    ] as const) {
      const refused = await assetAction('Engineer', asset.id, verb, body);
      expect(refused.status, verb).toBe(409);
      expect(refused.body.code, verb).toBe('STATE_CONFLICT');
    }
    expect((await assetAction('Admin', asset.id, 'return-from-conservation', {})).body.status).toBe('operational');
    expect((await assetAction('Admin', asset.id, 'return-from-conservation', {})).status).toBe(409);
    const entries = await journal(`assetId=${asset.id}`);
    expect(entries.items.map((item: { op: string; status: string }) => `${item.op}:${item.status}`)).toEqual([
      'from_conservation:applied',
      'conservation:applied',
    ]);
  });

  it('sends to repair and back: the asset shows its repair record while in repair', async () => {
    const asset = await newAsset(actors.north);
    const repaired = await assetAction('Mechanic', asset.id, 'to-repair', { reason: 'Течь гидравлики' });
    expect(repaired.body).toMatchObject({ status: 'maintenance', maintenanceId: expect.any(String) });
    const record = await actors.act('Mechanic', 'GET', `/api/v1/eam/maintenance/${repaired.body.maintenanceId}`);
    expect(record.body).toMatchObject({ assetId: asset.id, kind: 'repair', status: 'inProgress', reason: 'Течь гидравлики' });
    const back = await assetAction('Mechanic', asset.id, 'from-repair', { reason: 'Заменены рукава' });
    expect(back.body).toMatchObject({ status: 'operational', maintenanceId: null });
    const done = await actors.act('Mechanic', 'GET', `/api/v1/eam/maintenance/${record.body.id}`);
    expect(done.body).toMatchObject({ status: 'completed', notes: 'Заменены рукава' });
    expect((await assetAction('Mechanic', asset.id, 'from-repair', {})).body.code).toBe('STATE_CONFLICT');
    const ops = (await journal(`assetId=${asset.id}`)).items.map((item: { op: string }) => item.op);
    expect(ops).toEqual(['from_repair', 'to_repair']);
  });

  it('answers 409 ASSET_NOT_IN_REPAIR to from-repair of an asset under planned maintenance', async () => {
    const asset = await newAsset(actors.north);
    expect((await assetAction('Mechanic', asset.id, 'send-to-maintenance', { reason: 'x' })).status).toBe(422);
    const sent = await assetAction('Mechanic', asset.id, 'send-to-maintenance', { reason: 'ТО-250' });
    expect(sent.body.status).toBe('maintenance');
    const refused = await assetAction('Mechanic', asset.id, 'from-repair', {});
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ASSET_NOT_IN_REPAIR');
    expect((await assetAction('Mechanic', asset.id, 'to-repair', { reason: 'broken' })).body.code).toBe('STATE_CONFLICT');
  });
});

describe('decommissioning', () => {
  let foreignCeo: string;

  beforeAll(async () => {
    const root = await login(actors.stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
    const organizationId = await createOrganization(actors.stack, root, 'eam-other', 'Other');
    foreignCeo = await addMember(actors.stack, root, organizationId, {
      email: 'ceo@eam-other.example.org',
      password: 'other-password',
      name: 'Other CEO',
      roles: ['CEO'],
    });
  });

  it('needs a second approver: a CEO or Engineer of the organization other than the actor (422 otherwise)', async () => {
    const asset = await newAsset(actors.north);
    const decommission = (coApprovedBy: string, reason = 'Износ рамы') =>
      assetAction('Engineer', asset.id, 'decommission', { coApprovedBy, reason });
    const empty = await decommission('');
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'coApprovedBy' }] });
    expect((await decommission(actors.userId('CEO'), 'four')).status).toBe(422);
    expect((await decommission(actors.userId('Engineer'))).body.code).toBe('ASSET_CO_APPROVER_IS_ACTOR');
    for (const other of [actors.userId('Mechanic'), actors.userId('Admin'), foreignCeo, randomUUID()]) {
      const refused = await decommission(other);
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('ASSET_CO_APPROVER_INVALID');
    }
    expect((await actors.act('CEO', 'GET', `/api/v1/eam/assets/${asset.id}`)).body.status).toBe('operational');
  });

  it('decommissions from any state once; a second call answers 409 ASSET_ALREADY_DECOMMISSIONED, a replay the same answer', async () => {
    const asset = await newAsset(actors.north);
    const key = idempotencyKey();
    const body = { coApprovedBy: actors.userId('CEO'), reason: 'Исчерпан ресурс' };
    const first = await actors.act('Engineer', 'POST', `/api/v1/eam/assets/${asset.id}/decommission`, body, key);
    expect(first.body).toMatchObject({
      status: 'decommissioned',
      decommissionedBy: actors.userId('Engineer'),
      decommissionCoApprovedBy: actors.userId('CEO'),
      decommissionReason: 'Исчерпан ресурс',
      decommissionedAt: expect.any(String),
    });
    const replay = await actors.act('Engineer', 'POST', `/api/v1/eam/assets/${first.body.id}/decommission`, body, key);
    expect(replay.body).toEqual(first.body);
    const second = await assetAction('CEO', first.body.id, 'decommission', {
      coApprovedBy: actors.userId('Engineer'),
      reason: 'again',
    });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('ASSET_ALREADY_DECOMMISSIONED');
    for (const [verb, payload] of [
      ['move', { toObjectId: actors.south }],
      ['conserve', { reason: 'late' }],
      ['to-repair', { reason: 'late' }],
      ['send-to-maintenance', { reason: 'late' }],
    ] as const) {
      expect((await assetAction('Engineer', first.body.id, verb, payload)).body.code, verb).toBe('STATE_CONFLICT');
    }
  });

  it('decommissions a conserved asset and one under maintenance, cancelling its open maintenance', async () => {
    const conserved = await newAsset(actors.north);
    await assetAction('Mechanic', conserved.id, 'conserve', { reason: 'Консервация' });
    const approver = { coApprovedBy: actors.userId('Engineer'), reason: 'Списание' };
    expect((await assetAction('CEO', conserved.id, 'decommission', approver)).body.status).toBe('decommissioned');
    const busy = await newAsset(actors.north);
    const scheduled = await actors.act('Engineer', 'POST', '/api/v1/eam/maintenance', {
      assetId: busy.id,
      scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
      reason: 'ТО-500',
    });
    const sent = await assetAction('Mechanic', busy.id, 'to-repair', { reason: 'Поломка' });
    const gone = await assetAction('CEO', busy.id, 'decommission', approver);
    expect(gone.body).toMatchObject({ status: 'decommissioned', maintenanceId: null });
    for (const id of [scheduled.body.id, sent.body.maintenanceId]) {
      const record = await actors.act('CEO', 'GET', `/api/v1/eam/maintenance/${id}`);
      expect(record.body).toMatchObject({ status: 'cancelled', cancelledBy: actors.userId('CEO') });
    }
    // The journal keeps the repair; the decommission is the asset's own record, not a movement.
    const entries = await journal(`assetId=${busy.id}`);
    expect(entries.items.map((item: { op: string; status: string }) => `${item.op}:${item.status}`)).toEqual(['to_repair:applied']);
    const records = await actors.query(`select status, reason from operations.asset_decommission where asset_id = $1`, [busy.id]);
    expect(records).toEqual([{ status: 'applied', reason: approver.reason }]);
    const refused = await actors.act('CEO', 'GET', `/api/v1/eam/movements?op=decommission`);
    expect(refused.status).toBe(422);
  });
});

describe('movements journal', () => {
  it('filters by asset, object (from or to), op, status and dates, newest first in cursor pages', async () => {
    const asset = await newAsset(actors.north);
    const before = new Date().toISOString();
    await assetAction('Engineer', asset.id, 'move', { toObjectId: actors.south });
    await assetAction('Engineer', asset.id, 'conserve', { reason: 'Консервация' });
    await assetAction('Engineer', asset.id, 'return-from-conservation', {});
    await assetAction('Engineer', asset.id, 'move', { toObjectId: actors.north });
    const all = await journal(`assetId=${asset.id}`);
    expect(all.items.map((item: { op: string }) => item.op)).toEqual([
      'transfer_audit',
      'from_conservation',
      'conservation',
      'transfer_audit',
    ]);
    const page = await journal(`assetId=${asset.id}&limit=3`);
    const rest = await journal(`assetId=${asset.id}&limit=3&cursor=${page.nextCursor}`);
    expect([...page.items, ...rest.items]).toEqual(all.items);
    expect(rest.nextCursor).toBeNull();
    expect((await journal(`assetId=${asset.id}&op=transfer_audit`)).items).toHaveLength(2);
    expect((await journal(`assetId=${asset.id}&objectId=${actors.north}`)).items).toHaveLength(2);
    expect((await journal(`assetId=${asset.id}&objectId=${actors.south}`)).items).toHaveLength(4);
    expect((await journal(`assetId=${asset.id}&status=applied`)).items).toHaveLength(4);
    expect((await journal(`assetId=${asset.id}&status=draft`)).items).toHaveLength(0);
    expect((await journal(`assetId=${asset.id}&dateFrom=${before}`)).items).toHaveLength(4);
    expect((await journal(`assetId=${asset.id}&dateTo=${before}`)).items).toHaveLength(0);
    expect((await actors.act('CEO', 'GET', '/api/v1/eam/movements?op=teleport')).status).toBe(422);
    expect((await actors.act('CEO', 'GET', '/api/v1/eam/movements?limit=201')).status).toBe(422);
  });

  it('shows a Foreman the movements touching their objects and a Mechanic every object’s', async () => {
    const away = await newAsset(actors.south);
    await assetAction('Engineer', away.id, 'conserve', { reason: 'Консервация' });
    const foreman = await actors.act('Foreman', 'GET', '/api/v1/eam/movements?limit=200');
    expect(foreman.body.items.length).toBeGreaterThan(0);
    const touchesNorth = (item: { fromObjectId: string; toObjectId: string }) =>
      item.fromObjectId === actors.north || item.toObjectId === actors.north;
    expect(foreman.body.items.every(touchesNorth)).toBe(true);
    expect((await actors.act('Foreman', 'GET', `/api/v1/eam/movements?assetId=${away.id}`)).body.items).toEqual([]);
    expect((await actors.act('Mechanic', 'GET', `/api/v1/eam/movements?assetId=${away.id}`)).body.items).toHaveLength(1);
  });
});

describe('audit', () => {
  it('has an audit row for every mutation this file made', async () => {
    expect(actors.mutations.length).toBeGreaterThan(25);
    expect(await actors.unaudited()).toEqual([]);
  });
});
