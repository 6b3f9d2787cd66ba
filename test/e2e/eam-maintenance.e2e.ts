import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { Actors } from '../support/actors.js';
import { AssetBuilder } from '../support/eam.js';

/**
 * Maintenance over REST: scheduled → inProgress → completed, scheduled or inProgress →
 * cancelled (Engineer, CEO), the asset under maintenance while one is in progress, and a
 * movement for every change.
 */

let actors: Actors;
let assets: AssetBuilder;
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

const newAsset = async (objectId = actors.north): Promise<string> => (await assets.create(objectId)).id;

async function schedule(assetId: string, role: OperationsRole = 'Mechanic') {
  const response = await actors.act(role, 'POST', '/api/v1/eam/maintenance', { assetId, scheduledAt: tomorrow(), reason: 'ТО-250' });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; status: string };
}

const step = (role: OperationsRole, id: string, verb: string, body: unknown = {}) =>
  actors.act(role, 'POST', `/api/v1/eam/maintenance/${id}/${verb}`, body);
const asset = async (id: string) => (await actors.act('CEO', 'GET', `/api/v1/eam/assets/${id}`)).body;
const movements = async (assetId: string) =>
  (await actors.act('CEO', 'GET', `/api/v1/eam/movements?assetId=${assetId}`)).body.items.map(
    (item: { op: string; status: string }) => `${item.op}:${item.status}`,
  );

beforeAll(async () => {
  actors = await Actors.start();
  assets = new AssetBuilder(actors, {
    prefix: 'MT',
    first: 300,
    assetClass: { code: 'TRUCK', name: 'Самосвалы' },
    defaults: { name: 'Самосвал', commissionedAt: '2023-03-01', passport: { payloadTonnes: 90 } },
  });
});
afterAll(async () => {
  await actors?.stop();
});

describe('scheduling', () => {
  it('schedules maintenance of an asset, not in the past, with a reason of 2 to 500 characters (422 otherwise)', async () => {
    const assetId = await newAsset();
    const at = tomorrow();
    const created = await actors.act('CEO', 'POST', '/api/v1/eam/maintenance', { assetId, scheduledAt: at, reason: 'ТО-500' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      assetId,
      kind: 'maintenance',
      status: 'scheduled',
      scheduledAt: at,
      reason: 'ТО-500',
      startedAt: null,
      completedAt: null,
      cancelledAt: null,
      objectId: actors.north,
    });
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    for (const body of [{ scheduledAt: hourAgo }, { reason: 'x' }, { reason: 'x'.repeat(501) }, { scheduledAt: 'tomorrow' }]) {
      const refused = await actors.act('Engineer', 'POST', '/api/v1/eam/maintenance', { assetId, scheduledAt: at, reason: 'ok', ...body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    const missing = await actors.act('Engineer', 'POST', '/api/v1/eam/maintenance', {
      assetId: randomUUID(),
      scheduledAt: at,
      reason: 'ok',
    });
    expect(missing.status).toBe(404);
    // Maintenance is told by its record: the movements journal takes only seed 002's movement kinds.
    expect(await movements(assetId)).toEqual([]);
    expect((await asset(assetId)).status).toBe('operational');
  });
});

describe('the state machine', () => {
  it('moves scheduled → inProgress → completed; the asset is under that maintenance while it is in progress', async () => {
    const assetId = await newAsset();
    const record = await schedule(assetId);
    const started = await step('Mechanic', record.id, 'start', {});
    expect(started.body).toMatchObject({ status: 'inProgress', performedBy: actors.userId('Mechanic'), startedAt: expect.any(String) });
    expect(await asset(assetId)).toMatchObject({ status: 'maintenance', maintenanceId: record.id });
    expect(await movements(assetId)).toEqual([]);
    expect((await step('Mechanic', record.id, 'complete', { notes: 'x'.repeat(2001) })).status).toBe(422);
    const completed = await step('Engineer', record.id, 'complete', { notes: 'Заменены фильтры' });
    expect(completed.body).toMatchObject({ status: 'completed', notes: 'Заменены фильтры', completedAt: expect.any(String) });
    expect(await asset(assetId)).toMatchObject({ status: 'operational', maintenanceId: null });
    expect(await movements(assetId)).toEqual([]);
  });

  it('refuses every transition from a state the seed does not allow with 409 STATE_CONFLICT', async () => {
    const record = await schedule(await newAsset());
    const completeScheduled = await step('CEO', record.id, 'complete', {});
    expect(completeScheduled.status).toBe(409);
    expect(completeScheduled.body).toMatchObject({ code: 'STATE_CONFLICT' });
    await step('CEO', record.id, 'start', {});
    expect((await step('CEO', record.id, 'start', {})).body.code).toBe('STATE_CONFLICT');
    await step('CEO', record.id, 'complete', {});
    for (const [verb, body] of [
      ['start', {}],
      ['complete', {}],
      ['cancel', { reason: 'too late' }],
    ] as const) {
      expect((await step('CEO', record.id, verb, body)).status, verb).toBe(409);
    }
    expect((await step('CEO', randomUUID(), 'start', {})).status).toBe(404);
  });

  it('cancels a scheduled record and one in progress (the asset freed)', async () => {
    const assetId = await newAsset();
    const planned = await schedule(assetId);
    expect((await step('Engineer', planned.id, 'cancel', { reason: 'x' })).status).toBe(422);
    expect((await step('Mechanic', planned.id, 'cancel', { reason: 'Не нужно' })).status).toBe(403);
    const cancelled = await step('CEO', planned.id, 'cancel', { reason: 'Перенос на следующий месяц' });
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      cancelledBy: actors.userId('CEO'),
      cancellationReason: 'Перенос на следующий месяц',
      cancelledAt: expect.any(String),
    });
    expect((await step('CEO', planned.id, 'start', {})).body.code).toBe('STATE_CONFLICT');
    const running = await schedule(assetId);
    await step('Mechanic', running.id, 'start', {});
    expect((await step('Engineer', running.id, 'cancel', { reason: 'Нет запчастей' })).body.status).toBe('cancelled');
    expect(await asset(assetId)).toMatchObject({ status: 'operational', maintenanceId: null });
    expect(await movements(assetId)).toEqual([]);
  });

  it('starts only the maintenance of an operational asset: conserved, in repair or decommissioned answer 409', async () => {
    const assetId = await newAsset();
    const record = await schedule(assetId);
    await actors.act('Mechanic', 'POST', `/api/v1/eam/assets/${assetId}/conserve`, { reason: 'Консервация' });
    const refused = await step('Mechanic', record.id, 'start', {});
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('Asset is conserved');
    await actors.act('Mechanic', 'POST', `/api/v1/eam/assets/${assetId}/return-from-conservation`, {});
    await actors.act('Mechanic', 'POST', `/api/v1/eam/assets/${assetId}/to-repair`, { reason: 'Поломка' });
    expect((await step('Mechanic', record.id, 'start', {})).status).toBe(409);
    expect((await step('Mechanic', record.id, 'start', {})).body.detail).toContain('Asset is maintenance');
    expect((await asset(assetId)).status).toBe('maintenance');
  });

  it('applies exactly one of two concurrent starts for one asset', async () => {
    const assetId = await newAsset();
    const [first, second] = [await schedule(assetId), await schedule(assetId)];
    const answers = await Promise.all([step('Mechanic', first.id, 'start', {}), step('Engineer', second.id, 'start', {})]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.status === 200)!.body.id;
    expect(await asset(assetId)).toMatchObject({ status: 'maintenance', maintenanceId: winner });
  });
});

describe('reading', () => {
  it('lists records by asset and status, latest scheduled first, in cursor pages of 1 to 200', async () => {
    const assetId = await newAsset();
    const early = await schedule(assetId);
    const late = await actors.act('Mechanic', 'POST', '/api/v1/eam/maintenance', {
      assetId,
      scheduledAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      reason: 'ТО-1000',
    });
    const page = await actors.act('Foreman', 'GET', `/api/v1/eam/maintenance?assetId=${assetId}&limit=1`);
    expect(page.body.items.map((item: { id: string }) => item.id)).toEqual([late.body.id]);
    const next = await actors.act('Foreman', 'GET', `/api/v1/eam/maintenance?assetId=${assetId}&limit=1&cursor=${page.body.nextCursor}`);
    expect(next.body).toMatchObject({ items: [{ id: early.id }], nextCursor: null });
    await step('CEO', early.id, 'cancel', { reason: 'Лишнее' });
    const cancelled = await actors.act('CEO', 'GET', `/api/v1/eam/maintenance?assetId=${assetId}&status=cancelled`);
    expect(cancelled.body.items.map((item: { id: string }) => item.id)).toEqual([early.id]);
    expect((await actors.act('CEO', 'GET', '/api/v1/eam/maintenance?status=done')).status).toBe(422);
    expect((await actors.act('CEO', 'GET', '/api/v1/eam/maintenance?limit=0')).status).toBe(422);
  });

  it('shows Foremen and Mechanics the records of assets at their objects only', async () => {
    const away = await schedule(await newAsset(actors.south), 'Engineer');
    const home = await schedule(await newAsset(actors.north));
    for (const role of ['Foreman', 'Mechanic'] as const) {
      expect((await actors.act(role, 'GET', `/api/v1/eam/maintenance/${away.id}`)).status).toBe(404);
      expect((await actors.act(role, 'GET', `/api/v1/eam/maintenance/${home.id}`)).status).toBe(200);
      const listed = await actors.act(role, 'GET', '/api/v1/eam/maintenance?limit=200');
      expect(listed.body.items.every((item: { objectId: string }) => item.objectId === actors.north)).toBe(true);
    }
    expect((await step('Mechanic', away.id, 'start', {})).status).toBe(404);
  });
});

describe('audit', () => {
  it('has an audit row for every mutation this file made, and journal entries only for repairs', async () => {
    expect(actors.mutations.length).toBeGreaterThan(25);
    expect(await actors.unaudited()).toEqual([]);
    const orphans = await actors.query(
      `select r.id from operations.maintenance_record r
       where r.kind = 'repair' and not exists (select 1 from operations.asset_movement m where m.maintenance_id = r.id)`,
    );
    expect(orphans).toEqual([]);
    const [ops] = await actors.query<{ ops: string[] | null }>(
      `select array_agg(distinct op order by op) as ops from operations.asset_movement`,
    );
    expect(['transfer_audit', 'conservation', 'from_conservation', 'to_repair', 'from_repair']).toEqual(
      expect.arrayContaining(ops?.ops ?? []),
    );
  });
});
