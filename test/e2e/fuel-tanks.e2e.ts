import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actors } from '../support/actors.js';

/** Fuel tanks, their derived status and minimum level, supplies and their reversals, over REST. */

let actors: Actors;
let codes = 0;
/** A supplier of the organization: a fuel supply names one. */
let supplierId: string;
const LOW_STOCK = 'scm.fuel.tank.low-stock';

async function newTank(body: Record<string, unknown> = {}, objectId = actors.north) {
  const response = await actors.act('Admin', 'POST', '/api/v1/scm/fuel/tanks', {
    objectId,
    code: `T-${++codes}`,
    capacityLiters: 1000,
    minLevelLiters: 100,
    ...body,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; code: string; currentBalanceLiters: number; statusDerived: string };
}

const supply = (tankId: string, quantityLiters: number, extra: Record<string, unknown> = {}) =>
  actors.act('Supply', 'POST', '/api/v1/scm/fuel/supplies', { tankId, supplierId, quantityLiters, ...extra });
const reverse = (id: string, body: Record<string, unknown> = {}) =>
  actors.act('Supply', 'POST', `/api/v1/scm/fuel/supplies/${id}/reverse`, {
    reason: 'Ошибка ввода',
    comment: 'Поставка записана дважды',
    ...body,
  });
const tank = async (id: string) => (await actors.act('CEO', 'GET', `/api/v1/scm/fuel/tanks/${id}`)).body;
const lowStockFor = async (tankId: string) => (await actors.events(LOW_STOCK)).filter((event) => event.payload.tankId === tankId);

beforeAll(async () => {
  actors = await Actors.start();
  const supplier = await actors.act('Supply', 'POST', '/api/v1/scm/suppliers', { bin: '971240001315', legalName: 'Fuel Supplier' });
  expect(supplier.status, JSON.stringify(supplier.body)).toBe(201);
  supplierId = supplier.body.id;
});
afterAll(async () => {
  await actors?.stop();
});

describe('tanks', () => {
  it('creates a tank with a code unique in the organization, within its bounds (409, 422)', async () => {
    const created = await newTank({ code: 'DT-1', initialBalanceLiters: 640.5 });
    expect(created).toMatchObject({
      code: 'DT-1',
      objectId: actors.north,
      capacityLiters: 1000,
      minLevelLiters: 100,
      currentBalanceLiters: 640.5,
      active: true,
      statusDerived: 'normal',
    });
    const taken = await actors.act('Admin', 'POST', '/api/v1/scm/fuel/tanks', {
      objectId: actors.south,
      code: 'DT-1',
      capacityLiters: 5,
      minLevelLiters: 0,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('FUEL_TANK_CODE_TAKEN');
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ capacityLiters: 0 }, 'VALIDATION_FAILED'],
      [{ capacityLiters: 10.5 }, 'VALIDATION_FAILED'],
      [{ minLevelLiters: -1 }, 'VALIDATION_FAILED'],
      [{ code: '' }, 'VALIDATION_FAILED'],
      [{ code: 'x'.repeat(65) }, 'VALIDATION_FAILED'],
      [{ initialBalanceLiters: -0.5 }, 'VALIDATION_FAILED'],
      [{ minLevelLiters: 1001 }, 'FUEL_MIN_LEVEL_ABOVE_CAPACITY'],
      [{ initialBalanceLiters: 1000.01 }, 'FUEL_TANK_CAPACITY_EXCEEDED'],
    ];
    for (const [body, code] of refusals) {
      const refused = await actors.act('Admin', 'POST', '/api/v1/scm/fuel/tanks', {
        objectId: actors.north,
        code: `BAD-${++codes}`,
        capacityLiters: 1000,
        minLevelLiters: 100,
        ...body,
      });
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([422, code]);
    }
    expect(
      (
        await actors.act('Admin', 'POST', '/api/v1/scm/fuel/tanks', {
          objectId: randomUUID(),
          code: 'NOWHERE',
          capacityLiters: 1,
          minLevelLiters: 0,
        })
      ).status,
    ).toBe(404);
  });

  it('derives statusDerived: critical at or below the minimum, attention up to 20% above it, normal beyond', async () => {
    const cases: Array<[number, number, string]> = [
      [0, 0, 'critical'],
      [50, 100, 'critical'],
      [100, 100, 'critical'],
      [100.01, 100, 'attention'],
      [120, 100, 'attention'],
      [120.01, 100, 'normal'],
      [0.01, 0, 'normal'],
    ];
    for (const [balance, minimum, status] of cases) {
      const created = await newTank({ initialBalanceLiters: balance, minLevelLiters: minimum });
      expect(created.statusDerived, `${balance} over ${minimum}`).toBe(status);
    }
  });

  it('lists tanks by object, status and active in cursor pages; Foremen and Mechanics see their objects’ tanks only', async () => {
    const away = await newTank({ initialBalanceLiters: 10 }, actors.south);
    const critical = await actors.act('CEO', 'GET', `/api/v1/scm/fuel/tanks?objectId=${actors.south}&status=critical&active=true`);
    expect(critical.body.items.map((item: { id: string }) => item.id)).toEqual([away.id]);
    expect((await actors.act('CEO', 'GET', `/api/v1/scm/fuel/tanks?objectId=${actors.south}&active=false`)).body.items).toEqual([]);
    const page = await actors.act('Engineer', 'GET', '/api/v1/scm/fuel/tanks?limit=2');
    const next = await actors.act('Engineer', 'GET', `/api/v1/scm/fuel/tanks?limit=2&cursor=${page.body.nextCursor}`);
    expect(page.body.items).toHaveLength(2);
    expect(next.body.items[0].code > page.body.items[1].code).toBe(true);
    for (const role of ['Foreman', 'Mechanic'] as const) {
      const listed = await actors.act(role, 'GET', '/api/v1/scm/fuel/tanks?limit=200');
      expect(listed.body.items.length).toBeGreaterThan(0);
      expect(listed.body.items.every((item: { objectId: string }) => item.objectId === actors.north)).toBe(true);
      expect((await actors.act(role, 'GET', `/api/v1/scm/fuel/tanks?objectId=${actors.south}`)).body.items).toEqual([]);
      expect((await actors.act(role, 'GET', `/api/v1/scm/fuel/tanks/${away.id}`)).status).toBe(404);
    }
    expect((await actors.act('CEO', 'GET', '/api/v1/scm/fuel/tanks?limit=201')).status).toBe(422);
    expect((await actors.act('CEO', 'GET', '/api/v1/scm/fuel/tanks?status=empty')).status).toBe(422);
  });

  it('updates the minimum level up to the capacity, audited, and raises the low-stock alert when the tank becomes critical', async () => {
    const created = await newTank({ initialBalanceLiters: 300 });
    const over = await actors.act('Engineer', 'POST', `/api/v1/scm/fuel/tanks/${created.id}/min-level`, { minLevelLiters: 1000.5 });
    expect([over.status, over.body.code]).toEqual([422, 'FUEL_MIN_LEVEL_ABOVE_CAPACITY']);
    expect((await actors.act('Engineer', 'POST', `/api/v1/scm/fuel/tanks/${created.id}/min-level`, { minLevelLiters: -1 })).status).toBe(
      422,
    );
    const attention = await actors.act('Supply', 'POST', `/api/v1/scm/fuel/tanks/${created.id}/min-level`, { minLevelLiters: 250 });
    expect(attention.body).toMatchObject({ minLevelLiters: 250, statusDerived: 'attention' });
    expect(await lowStockFor(created.id)).toEqual([]);
    const critical = await actors.act('Admin', 'POST', `/api/v1/scm/fuel/tanks/${created.id}/min-level`, { minLevelLiters: 300 });
    expect(critical.body.statusDerived).toBe('critical');
    await actors.act('Admin', 'POST', `/api/v1/scm/fuel/tanks/${created.id}/min-level`, { minLevelLiters: 310 });
    const events = await lowStockFor(created.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      code: created.code,
      objectId: actors.north,
      minLevelLiters: '300',
      currentBalanceLiters: '300',
    });
    const history = await actors.act('CEO', 'GET', `/api/v1/core/audit?entityType=FuelTank&entityId=${created.id}`);
    expect(history.body.items[0]).toMatchObject({
      operation: 'scmSetFuelTankMinLevel',
      changes: { minLevelLiters: { before: 300, after: 310 } },
    });
  });
});

describe('supplies', () => {
  it('records receipts into the tank with exact decimal balances, never above its capacity (422 FUEL_TANK_CAPACITY_EXCEEDED)', async () => {
    const created = await newTank();
    const first = await supply(created.id, 0.1, { occurredAt: '2026-11-20T08:00:00Z' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      tankId: created.id,
      objectId: actors.north,
      kind: 'receipt',
      supplierId,
      quantityLiters: 0.1,
      occurredAt: '2026-11-20T08:00:00.000Z',
      actorId: actors.userId('Supply'),
      supplyRequestId: null,
      sagaId: null,
      balanceAfterLiters: 0.1,
    });
    expect((await supply(created.id, 0.2)).body.balanceAfterLiters).toBe(0.3);
    expect((await tank(created.id)).currentBalanceLiters).toBe(0.3);
    const over = await supply(created.id, 999.71);
    expect([over.status, over.body.code]).toEqual([422, 'FUEL_TANK_CAPACITY_EXCEEDED']);
    expect((await supply(created.id, 999.7)).body.balanceAfterLiters).toBe(1000);
    for (const quantityLiters of [0, -5]) expect((await supply(created.id, quantityLiters)).status).toBe(422);
    expect((await supply(randomUUID(), 1)).status).toBe(404);
    const history = await actors.act('Foreman', 'GET', `/api/v1/scm/fuel/supplies?tankId=${created.id}&supplierId=${supplierId}&limit=2`);
    expect(history.body.items.map((item: { quantityLiters: number }) => item.quantityLiters)).toEqual([999.7, 0.2]);
    const rest = await actors.act(
      'Foreman',
      'GET',
      `/api/v1/scm/fuel/supplies?tankId=${created.id}&limit=2&cursor=${history.body.nextCursor}`,
    );
    expect(rest.body).toMatchObject({ items: [{ id: first.body.id }], nextCursor: null });
  });

  it('reverses a receipt once as a counter-entry keeping the original (reason 3–500, comment 10–2000)', async () => {
    const created = await newTank({ initialBalanceLiters: 500 });
    const receipt = (await supply(created.id, 200.25)).body;
    for (const body of [{ reason: 'no' }, { comment: 'too short' }, { comment: 'x'.repeat(2001) }]) {
      expect((await reverse(receipt.id, body)).status, JSON.stringify(body)).toBe(422);
    }
    const reversal = await reverse(receipt.id);
    expect(reversal.body).toMatchObject({
      kind: 'reversal',
      reversalOfId: receipt.id,
      quantityLiters: 200.25,
      reason: 'Ошибка ввода',
      comment: 'Поставка записана дважды',
      balanceAfterLiters: 500,
    });
    const again = await reverse(receipt.id);
    expect([again.status, again.body.code]).toEqual([409, 'FUEL_SUPPLY_ALREADY_REVERSED']);
    expect((await reverse(reversal.body.id)).body.code).toBe('FUEL_SUPPLY_NOT_REVERSIBLE');
    const history = (await actors.act('CEO', 'GET', `/api/v1/scm/fuel/supplies?tankId=${created.id}`)).body.items;
    expect(history.find((item: { id: string }) => item.id === receipt.id)).toMatchObject({
      kind: 'receipt',
      reversedById: reversal.body.id,
    });
    expect((await tank(created.id)).currentBalanceLiters).toBe(500);
  });

  it('raises the low-stock alert when a reversal takes the tank from above its minimum to it', async () => {
    const created = await newTank({ initialBalanceLiters: 100, minLevelLiters: 100 });
    const receipt = (await supply(created.id, 50)).body;
    const small = (await supply(created.id, 5)).body;
    expect((await reverse(small.id)).body.balanceAfterLiters).toBe(150);
    expect(await lowStockFor(created.id)).toEqual([]);
    expect((await reverse(receipt.id)).body.balanceAfterLiters).toBe(100);
    expect((await tank(created.id)).statusDerived).toBe('critical');
    const events = await lowStockFor(created.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      organization_id: actors.sessions.get('Supply')!.organizationId,
      payload: { tankId: created.id, currentBalanceLiters: '100', minLevelLiters: '100' },
    });
  });
});

describe('audit', () => {
  it('has an audit row for every mutation this file made', async () => {
    expect(actors.mutations.length).toBeGreaterThan(20);
    expect(await actors.unaudited()).toEqual([]);
  });
});
