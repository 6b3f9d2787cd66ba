import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { type Session } from '../support/operations.js';
import { type StockFixtures, startStockWorld, TRANSFERS, WRITE_OFFS } from '../support/scm.js';
import type { TestStack } from '../support/stack.js';

/** Write-off acts and transfers over REST: stock never below zero, even under concurrent write-offs. */

let stack: TestStack;
let stock: StockFixtures;
let sessions: Record<OperationsRole, Session>;
let objects: Record<string, string>;

beforeAll(async () => {
  ({ stack, sessions, stock, objects } = await startStockWorld(['Admin', 'CEO', 'Mechanic', 'Foreman']));
});
afterAll(async () => {
  await stack?.stop();
});

describe('write-offs', () => {
  it('writes every line off, or refuses the whole act when one line takes more than its balance', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const [a, b] = [await stock.item(), await stock.item()];
    await stock.receive(warehouse, [
      { itemId: a!, quantity: 5, price: 10 },
      { itemId: b!, quantity: 5, price: 20 },
    ]);
    const short = await stock.writeOff(
      sessions.Supply,
      warehouse,
      [
        { itemId: a!, quantity: 2 },
        { itemId: b!, quantity: 5.001 },
      ],
      objects.NORTH!,
    );
    expect([short.status, short.body.code]).toEqual([422, 'TMC_INSUFFICIENT_STOCK']);
    expect([await stock.balance(warehouse, a!), await stock.balance(warehouse, b!)]).toEqual([5, 5]);
    const act = await stock.writeOff(
      sessions.Supply,
      warehouse,
      [
        { itemId: a!, quantity: 2 },
        { itemId: b!, quantity: 5 },
        { itemId: a!, quantity: 0.5 },
      ],
      objects.SOUTH!,
    );
    expect(act.status).toBe(201);
    expect(act.body).toEqual({ consumptionId: expect.any(String), warehouseId: warehouse, lineCount: 3 });
    expect([await stock.balance(warehouse, a!), await stock.balance(warehouse, b!)]).toEqual([2.5, 0]);
    const empty = await stock.writeOff(sessions.Supply, warehouse, [{ itemId: b!, quantity: 0.001 }], objects.NORTH!);
    expect(empty.body).toMatchObject({ code: 'TMC_INSUFFICIENT_STOCK', status: 422 });
  });

  it('bounds the act: a known reason, an occurrence time, non-empty lines, a known target object', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const item = await stock.item();
    await stock.stocked(warehouse, item, 1);
    const act = {
      warehouseId: warehouse,
      targetObjectId: objects.NORTH,
      reason: 'repair',
      occurredAt: '2026-11-20T08:00:00Z',
      lines: [{ itemId: item, quantity: 1 }],
    };
    for (const [field, value] of [
      ['reason', 'theft'],
      ['occurredAt', '2026-11-20'],
      ['lines', []],
      ['assetId', 'asset-1'],
    ] as const) {
      const refused = await stock.post(sessions.Supply, WRITE_OFFS, { ...act, [field]: value });
      expect(refused.status, field).toBe(422);
      expect(refused.body.errors[0].field).toBe(field);
    }
    const nowhere = await stock.post(sessions.Supply, WRITE_OFFS, { ...act, targetObjectId: '5f0c8a52-5d0b-4a57-9a3e-5a3c2f1d0b9e' });
    expect([nowhere.status, nowhere.body.code]).toEqual([404, 'RECORD_NOT_FOUND']);
    expect((await stock.post(sessions.Supply, WRITE_OFFS, act)).status).toBe(201);
  });

  for (const [each, expected] of [
    [1, { written: 10, left: 0 }],
    [3, { written: 3, left: 1 }],
  ] as const) {
    it(`never takes a balance of 10 below zero under 20 concurrent write-offs of ${each}`, async () => {
      const warehouse = await stock.warehouse(objects.NORTH!);
      const item = await stock.item();
      await stock.stocked(warehouse, item, 10);
      const acts = await Promise.all(
        Array.from({ length: 20 }, () => stock.writeOff(sessions.Supply, warehouse, [{ itemId: item, quantity: each }], objects.NORTH!)),
      );
      const statuses = acts.map((act) => act.status).sort();
      expect(statuses).toEqual([...Array(expected.written).fill(201), ...Array(20 - expected.written).fill(422)]);
      expect(acts.filter((act) => act.status === 422).every((act) => act.body.code === 'TMC_INSUFFICIENT_STOCK')).toBe(true);
      expect(await stock.balance(warehouse, item)).toBe(expected.left);
    });
  }

  it('lets a Mechanic write off in the warehouses of their production objects only', async () => {
    const north = await stock.warehouse(objects.NORTH!);
    const south = await stock.warehouse(objects.SOUTH!);
    const item = await stock.item();
    await stock.stocked(north, item, 2);
    await stock.stocked(south, item, 2);
    const theirs = await stock.writeOff(sessions.Mechanic, north, [{ itemId: item, quantity: 1 }], objects.NORTH!);
    expect(theirs.status).toBe(201);
    const other = await stock.writeOff(sessions.Mechanic, south, [{ itemId: item, quantity: 1 }], objects.NORTH!);
    expect([other.status, other.body.code]).toEqual([404, 'RECORD_NOT_FOUND']);
    expect(await stock.balance(south, item)).toBe(2);
    expect((await stock.writeOff(sessions.Foreman, north, [{ itemId: item, quantity: 1 }], objects.NORTH!)).status).toBe(403);
  });
});

describe('transfers', () => {
  it('takes stock out of the source when issued and puts it into the target when confirmed, once', async () => {
    const from = await stock.warehouse(objects.NORTH!);
    const to = await stock.warehouse(objects.SOUTH!);
    const item = await stock.item();
    await stock.stocked(from, item, 10);
    const issued = await stock.post(sessions.Supply, TRANSFERS, {
      fromWarehouseId: from,
      toWarehouseId: to,
      transferDate: '2026-11-21',
      documentNumber: 'ПР-17',
      lines: [{ itemId: item, quantity: 4.5 }],
    });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      status: 'issued',
      transferDate: '2026-11-21',
      issuedById: sessions.Supply.userId,
      confirmedAt: null,
      lines: [{ itemId: item, quantity: 4.5 }],
    });
    expect([await stock.balance(from, item), await stock.balance(to, item)]).toEqual([5.5, 0]);
    const confirmed = await stock.post(sessions.Admin, `${TRANSFERS}/${issued.body.id}/confirm`, { note: 'Принято без замечаний' });
    expect(confirmed.body).toMatchObject({ status: 'confirmed', confirmedById: sessions.Admin.userId, note: 'Принято без замечаний' });
    expect([await stock.balance(from, item), await stock.balance(to, item)]).toEqual([5.5, 4.5]);
    const again = await stock.post(sessions.Admin, `${TRANSFERS}/${issued.body.id}/confirm`);
    expect([again.status, again.body.code]).toEqual([409, 'STATE_CONFLICT']);
    expect(await stock.balance(to, item)).toBe(4.5);
    expect((await stock.get(sessions.CEO, `${TRANSFERS}/${issued.body.id}`)).body).toEqual(confirmed.body);
    const listed = await stock.get(sessions.CEO, `${TRANSFERS}?warehouseId=${to}&status=confirmed&limit=50`);
    expect(listed.body.items.map((transfer: { id: string }) => transfer.id)).toEqual([issued.body.id]);
    expect((await stock.get(sessions.CEO, `${TRANSFERS}?warehouseId=${to}&status=issued&limit=50`)).body.items).toEqual([]);
  });

  it('refuses a transfer into the same warehouse, or of more than the source holds, moving nothing', async () => {
    const from = await stock.warehouse(objects.NORTH!);
    const to = await stock.warehouse(objects.NORTH!);
    const item = await stock.item();
    await stock.stocked(from, item, 1);
    const transfer = {
      fromWarehouseId: from,
      toWarehouseId: to,
      transferDate: '2026-11-21',
      documentNumber: 'ПР-18',
      lines: [{ itemId: item, quantity: 2 }],
    };
    const same = await stock.post(sessions.Supply, TRANSFERS, { ...transfer, toWarehouseId: from });
    expect(same.body.errors).toEqual([{ field: 'toWarehouseId', message: 'must differ from fromWarehouseId' }]);
    const short = await stock.post(sessions.Supply, TRANSFERS, transfer);
    expect(short.body.code).toBe('TMC_INSUFFICIENT_STOCK');
    expect((await stock.post(sessions.Supply, TRANSFERS, { ...transfer, documentNumber: 'x'.repeat(101) })).status).toBe(422);
    expect([await stock.balance(from, item), await stock.balance(to, item)]).toEqual([1, 0]);
    expect((await stock.get(sessions.CEO, `${TRANSFERS}?warehouseId=${from}&limit=50`)).body.items).toEqual([]);
  });

  it('answers 422 naming limit when a list of transfers omits it, as the seed marks it required', async () => {
    const absent = await stock.get(sessions.CEO, `${TRANSFERS}?status=issued`);
    expect([absent.status, absent.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(absent.body.errors.map((error: { field: string }) => error.field)).toEqual(['limit']);
    const given = await stock.get(sessions.CEO, `${TRANSFERS}?status=issued&limit=1`);
    expect(given.status).toBe(200);
    expect(given.body.items.length).toBeLessThanOrEqual(1);
  });

  it('shows a Foreman the transfers touching their production objects, from either end', async () => {
    const north = await stock.warehouse(objects.NORTH!);
    const south = await stock.warehouse(objects.SOUTH!);
    const southToo = await stock.warehouse(objects.SOUTH!);
    const item = await stock.item();
    await stock.stocked(south, item, 3);
    const move = (to: string) =>
      stock.post(sessions.Supply, TRANSFERS, {
        fromWarehouseId: south,
        toWarehouseId: to,
        transferDate: '2026-11-22',
        documentNumber: 'ПР-19',
        lines: [{ itemId: item, quantity: 1 }],
      });
    const inbound = await move(north);
    const elsewhere = await move(southToo);
    expect((await stock.get(sessions.Foreman, `${TRANSFERS}/${inbound.body.id}`)).status).toBe(200);
    expect((await stock.get(sessions.Foreman, `${TRANSFERS}/${elsewhere.body.id}`)).status).toBe(404);
  });
});
