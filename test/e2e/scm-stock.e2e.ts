import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { call, idempotencyKey, type Session } from '../support/operations.js';
import { BALANCES, ITEMS, RECEIPTS, type StockFixtures, startStockWorld, WAREHOUSES } from '../support/scm.js';
import type { TestStack } from '../support/stack.js';

/** Warehouses, TMC items, receipts with their prices, and balances with minimums, over REST and GraphQL. */

let stack: TestStack;
let stock: StockFixtures;
let sessions: Record<OperationsRole, Session>;
let objects: Record<string, string>;

beforeAll(async () => {
  ({ stack, sessions, stock, objects } = await startStockWorld(['Admin', 'CEO', 'Foreman', 'Mechanic']));
});
afterAll(async () => {
  await stack?.stop();
});

describe('warehouses', () => {
  it('creates warehouses at production objects with a code unique in the organization', async () => {
    const created = await stock.post(sessions.Admin, WAREHOUSES, {
      objectId: objects.NORTH,
      code: 'NORTH-MAIN',
      name: 'Центральный склад',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ objectId: objects.NORTH, code: 'NORTH-MAIN', active: true });
    expect((await stock.get(sessions.CEO, `${WAREHOUSES}/${created.body.id}`)).body).toEqual(created.body);
    const twin = await stock.post(sessions.Admin, WAREHOUSES, { objectId: objects.SOUTH, code: 'NORTH-MAIN', name: 'Twin' });
    expect(twin.body.code).toBe('BUSINESS_KEY_TAKEN');
    const nowhere = await stock.post(sessions.Admin, WAREHOUSES, {
      objectId: '5f0c8a52-5d0b-4a57-9a3e-5a3c2f1d0b9e',
      code: 'X',
      name: 'X',
    });
    expect([nowhere.status, nowhere.body.code]).toEqual([404, 'RECORD_NOT_FOUND']);
  });

  it('shows a Foreman and a Mechanic only the warehouses and stock of their production objects', async () => {
    const north = await stock.warehouse(objects.NORTH!);
    const south = await stock.warehouse(objects.SOUTH!);
    const item = await stock.item();
    await stock.stocked(north, item, 2);
    await stock.stocked(south, item, 3);
    for (const role of ['Foreman', 'Mechanic'] as const) {
      const listed = await stock.get(sessions[role], `${WAREHOUSES}?limit=200`);
      expect(listed.body.items.map((warehouse: { objectId: string }) => warehouse.objectId)).not.toContain(objects.SOUTH);
      expect(listed.body.items.map((warehouse: { id: string }) => warehouse.id)).toContain(north);
      expect((await stock.get(sessions[role], `${WAREHOUSES}/${south}`)).status).toBe(404);
      const balances = await stock.get(sessions[role], `${BALANCES}?itemId=${item}`);
      expect(balances.body.items.map((balance: { quantity: number }) => balance.quantity)).toEqual([2]);
    }
    expect((await stock.get(sessions.CEO, `${BALANCES}?itemId=${item}`)).body.items).toHaveLength(2);
    expect((await stock.post(sessions.Foreman, WAREHOUSES, { objectId: objects.NORTH, code: 'F', name: 'F' })).status).toBe(403);
  });
});

describe('TMC items', () => {
  it('creates an item with a code unique in the organization, one of the five units and an initial price', async () => {
    const created = await stock.post(sessions.Supply, ITEMS, {
      nomenclatureCode: 'BIT-215',
      name: 'Долото 215,9 мм',
      category: 'drill_tool',
      unit: 'компл',
      initialPrice: 125000.5,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      unit: 'компл',
      lastPurchasePrice: 125000.5,
      weightedAvgPrice: 125000.5,
      active: true,
      assetClassId: null,
    });
    const twin = await stock.post(sessions.Supply, ITEMS, { nomenclatureCode: 'BIT-215', name: 'Twin', category: 'spare', unit: 'шт' });
    expect([twin.status, twin.body.code]).toEqual([409, 'BUSINESS_KEY_TAKEN']);
  });

  it('refuses units, categories, names, codes and prices outside their bounds', async () => {
    const base = { nomenclatureCode: 'B-1', name: 'Болт М16', category: 'spare', unit: 'шт' };
    for (const [field, value] of [
      ['unit', 'kg'],
      ['category', 'tool'],
      ['name', 'Б'],
      ['name', 'x'.repeat(501)],
      ['nomenclatureCode', ''],
      ['nomenclatureCode', 'x'.repeat(65)],
      ['initialPrice', -1],
      ['initialPrice', 1.005],
      ['assetClassId', 'not-a-uuid'],
    ] as const) {
      const refused = await stock.post(sessions.Supply, ITEMS, { ...base, [field]: value });
      expect(refused.status, `${field}=${value}`).toBe(422);
      expect(refused.body.errors[0].field).toBe(field);
    }
    for (const unit of ['шт', 'кг', 'л', 'м', 'компл']) {
      expect((await stock.post(sessions.Supply, ITEMS, { ...base, nomenclatureCode: `UNIT-${unit}`, unit })).status).toBe(201);
    }
  });

  it('lists items by code with category, active and text filters, the text at most 200 characters', async () => {
    const marker = `Q${Date.now()}`;
    const first = await stock.item({ nomenclatureCode: `${marker}-1`, category: 'consumable', name: 'Смазка литол' });
    await stock.item({ nomenclatureCode: `${marker}-2`, category: 'spare', name: 'Фильтр масляный' });
    const both = await stock.get(sessions.Foreman, `${ITEMS}?q=${marker}`);
    expect(both.body.items.map((item: { nomenclatureCode: string }) => item.nomenclatureCode)).toEqual([`${marker}-1`, `${marker}-2`]);
    const consumables = await stock.get(sessions.Foreman, `${ITEMS}?q=${marker}&category=consumable&active=true`);
    expect(consumables.body.items.map((item: { id: string }) => item.id)).toEqual([first]);
    const byName = await stock.get(sessions.Foreman, `${ITEMS}?q=${encodeURIComponent('литол')}`);
    expect(byName.body.items.map((item: { id: string }) => item.id)).toContain(first);
    const paged = await stock.get(sessions.Foreman, `${ITEMS}?q=${marker}&limit=1`);
    const next = await stock.get(sessions.Foreman, `${ITEMS}?q=${marker}&limit=1&cursor=${paged.body.nextCursor}`);
    expect(next.body).toMatchObject({ items: [{ nomenclatureCode: `${marker}-2` }], nextCursor: null });
    expect((await stock.get(sessions.Foreman, `${ITEMS}?q=${'x'.repeat(200)}`)).status).toBe(200);
    expect((await stock.get(sessions.Foreman, `${ITEMS}?q=${'x'.repeat(201)}`)).status).toBe(422);
    expect((await stock.get(sessions.Foreman, `${ITEMS}?limit=201`)).status).toBe(422);
  });

  it('updates the name and the asset class and leaves what is not sent', async () => {
    // An asset class of the organization: an id that names none is refused (test/e2e/operations-tenancy.e2e.ts).
    const assetClass = await call(
      stack,
      sessions.Admin,
      'POST',
      '/api/v1/eam/asset-classes',
      { code: 'BITS', name: 'Буровые долота' },
      idempotencyKey(),
    );
    expect(assetClass.status, JSON.stringify(assetClass.body)).toBe(201);
    const id = await stock.item({ assetClassId: assetClass.body.id });
    const renamed = await call(stack, sessions.Supply, 'PATCH', `${ITEMS}/${id}`, { name: 'Долото 244,5 мм' }, idempotencyKey());
    expect(renamed.body).toMatchObject({ name: 'Долото 244,5 мм', assetClassId: assetClass.body.id });
    const cleared = await call(stack, sessions.Supply, 'PATCH', `${ITEMS}/${id}`, { assetClassId: null }, idempotencyKey());
    expect(cleared.body).toMatchObject({ name: 'Долото 244,5 мм', assetClassId: null });
  });

  it('takes an item out of accounting only once no stock is left, and then refuses to receive it', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const id = await stock.item();
    await stock.stocked(warehouse, id, 1.5);
    const held = await stock.post(sessions.Supply, `${ITEMS}/${id}/deactivate`);
    expect([held.status, held.body.code]).toEqual([409, 'TMC_ITEM_HAS_STOCK']);
    expect((await stock.writeOff(sessions.Supply, warehouse, [{ itemId: id, quantity: 1.5 }], objects.NORTH!)).status).toBe(201);
    const deactivated = await stock.post(sessions.Supply, `${ITEMS}/${id}/deactivate`);
    expect(deactivated.body).toMatchObject({ id, active: false });
    const again = await stock.post(sessions.Supply, `${ITEMS}/${id}/deactivate`);
    expect([again.status, again.body.code]).toEqual([409, 'STATE_CONFLICT']);
    const receipt = await stock.receive(warehouse, [{ itemId: id, quantity: 1, price: 1 }]);
    expect([receipt.status, receipt.body.code]).toEqual([422, 'TMC_ITEM_INACTIVE']);
  });
});

describe('receipts', () => {
  it('recomputes the weighted average exactly over receipts at different prices and keeps the last purchase price', async () => {
    const north = await stock.warehouse(objects.NORTH!);
    const south = await stock.warehouse(objects.SOUTH!);
    const id = await stock.item();
    const first = await stock.receive(north, [{ itemId: id, quantity: 10, price: 100 }]);
    expect(first.body).toMatchObject({ warehouseId: north, totalAmount: 1000, lineCount: 1 });
    expect(await stock.itemCard(id)).toMatchObject({ weightedAvgPrice: 100, lastPurchasePrice: 100 });
    await stock.receive(south, [{ itemId: id, quantity: 20, price: 130 }]);
    expect(await stock.itemCard(id)).toMatchObject({ weightedAvgPrice: 120, lastPurchasePrice: 130 });
    expect((await stock.writeOff(sessions.Supply, north, [{ itemId: id, quantity: 5 }], objects.NORTH!)).status).toBe(201);
    expect((await stock.itemCard(id)).weightedAvgPrice).toBe(120);
    // 5 left north + 20 south at 120, then 5 at 90: (25 × 120 + 5 × 90) / 30.
    await stock.receive(north, [{ itemId: id, quantity: 5, price: 90 }]);
    expect(await stock.itemCard(id)).toMatchObject({ weightedAvgPrice: 115, lastPurchasePrice: 90 });
  });

  it('computes amounts and averages in decimals, where binary floats would drift', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const id = await stock.item();
    const receipt = await stock.receive(warehouse, [
      { itemId: id, quantity: 0.1, price: 0.7 },
      { itemId: id, quantity: 0.2, price: 0.7 },
    ]);
    // 0.1 × 0.7 + 0.2 × 0.7 is 0.20999999999999996 in binary floats.
    expect(receipt.body).toMatchObject({ totalAmount: 0.21, lineCount: 2 });
    expect(await stock.balance(warehouse, id)).toBe(0.3);
    await stock.receive(warehouse, [{ itemId: id, quantity: 0.6, price: 0.1 }]);
    // (0.3 × 0.7 + 0.6 × 0.1) / 0.9 = 0.3
    expect((await stock.itemCard(id)).weightedAvgPrice).toBe(0.3);
    await stock.receive(warehouse, [{ itemId: id, quantity: 0.1, price: 0.05 }]);
    // (0.9 × 0.3 + 0.1 × 0.05) / 1 = 0.275; then (1 × 0.275 + 2 × 1) / 3 = 0.758333…, kept to 4 places.
    expect((await stock.itemCard(id)).weightedAvgPrice).toBe(0.275);
    await stock.receive(warehouse, [{ itemId: id, quantity: 2, price: 1 }]);
    expect((await stock.itemCard(id)).weightedAvgPrice).toBe(0.7583);
  });

  it('receives goods from a supplier only when the supplier is active', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const id = await stock.item();
    const line = [{ itemId: id, quantity: 1, price: 10 }];
    const nameless = await stock.receive(warehouse, line, { source: 'supplier' });
    expect([nameless.status, nameless.body.errors?.[0].field]).toEqual([422, 'supplierId']);
    const supplier = await stock.post(sessions.Supply, '/api/v1/scm/suppliers', { bin: '971240001315', legalName: 'ТОО «Поставщик»' });
    const draft = await stock.receive(warehouse, line, { source: 'supplier', supplierId: supplier.body.id });
    expect([draft.status, draft.body.code]).toEqual([422, 'SUPPLIER_NOT_ACTIVE']);
    await stock.post(sessions.Supply, `/api/v1/scm/suppliers/${supplier.body.id}/submit`);
    await stock.post(sessions.Admin, `/api/v1/scm/suppliers/${supplier.body.id}/activate`);
    expect((await stock.receive(warehouse, line, { source: 'supplier', supplierId: supplier.body.id })).status).toBe(201);
    const unknown = await stock.receive(warehouse, line, { source: 'supplier', supplierId: '5f0c8a52-5d0b-4a57-9a3e-5a3c2f1d0b9e' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'RECORD_NOT_FOUND']);
  });

  it('refuses empty, zero, over-precise or unknown lines and writes nothing', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const id = await stock.item();
    for (const lines of [
      [],
      [{ itemId: id, quantity: 0, price: 1 }],
      [{ itemId: id, quantity: 1.0001, price: 1 }],
      [{ itemId: id, quantity: 1, price: -1 }],
    ]) {
      const refused = await stock.receive(warehouse, lines);
      expect(refused.status, JSON.stringify(lines)).toBe(422);
    }
    const unknown = await stock.receive(warehouse, [
      { itemId: id, quantity: 1, price: 1 },
      { itemId: '5f0c8a52-5d0b-4a57-9a3e-5a3c2f1d0b9e', quantity: 1, price: 1 },
    ]);
    expect(unknown.status).toBe(404);
    expect(await stock.balance(warehouse, id)).toBe(0);
    expect((await stock.post(sessions.Foreman, RECEIPTS, {})).status).toBe(403);
  });
});

describe('balances', () => {
  it('flags balances below the minimum set for the item in the warehouse and filters them with onlyLowStock', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const id = await stock.item();
    const set = await stock.post(sessions.Supply, `${WAREHOUSES}/${warehouse}/min-stock`, { itemId: id, minQuantity: 5 });
    expect(set.body).toMatchObject({ warehouseId: warehouse, itemId: id, quantity: 0, minQuantity: 5, lowStock: true });
    await stock.stocked(warehouse, id, 3);
    const low = await stock.get(sessions.CEO, `${BALANCES}?warehouseId=${warehouse}&onlyLowStock=true`);
    expect(low.body.items).toMatchObject([{ itemId: id, quantity: 3, lowStock: true }]);
    await stock.stocked(warehouse, id, 2);
    expect((await stock.get(sessions.CEO, `${BALANCES}?warehouseId=${warehouse}&onlyLowStock=true`)).body.items).toEqual([]);
    const cleared = await stock.post(sessions.Supply, `${WAREHOUSES}/${warehouse}/min-stock`, { itemId: id, minQuantity: null });
    expect(cleared.body).toMatchObject({ quantity: 5, minQuantity: null, lowStock: false });
    expect((await stock.post(sessions.Supply, `${WAREHOUSES}/${warehouse}/min-stock`, { itemId: id, minQuantity: -1 })).status).toBe(422);
  });

  it('pages balances by id with a cursor and bounds the page to 1..500, default 100', async () => {
    const warehouse = await stock.warehouse(objects.SOUTH!);
    const items = [await stock.item(), await stock.item(), await stock.item()];
    await stock.receive(
      warehouse,
      items.map((itemId) => ({ itemId, quantity: 1, price: 1 })),
    );
    const all = await stock.get(sessions.CEO, `${BALANCES}?warehouseId=${warehouse}`);
    expect(all.body.items).toHaveLength(3);
    const ids = all.body.items.map((balance: { id: string }) => balance.id);
    expect(ids).toEqual([...ids].sort());
    const first = await stock.get(sessions.CEO, `${BALANCES}?warehouseId=${warehouse}&limit=2`);
    const second = await stock.get(sessions.CEO, `${BALANCES}?warehouseId=${warehouse}&limit=2&cursor=${first.body.nextCursor}`);
    expect([...first.body.items, ...second.body.items].map((balance: { id: string }) => balance.id)).toEqual(ids);
    expect(second.body.nextCursor).toBeNull();
    for (const limit of [0, 501]) expect((await stock.get(sessions.CEO, `${BALANCES}?limit=${limit}`)).status).toBe(422);
    expect((await stock.get(sessions.CEO, `${BALANCES}?limit=500`)).status).toBe(200);
  });

  it('creates an item over GraphQL with an Idempotency-Key, replaying the same item for the same key', async () => {
    const mutation = `mutation($code: String!) {
      scmCreateTmcItem(nomenclatureCode: $code, name: "Канат стальной", category: consumable, unit: "м", initialPrice: 12.5) { id unit weightedAvgPrice }
    }`;
    const headers = { authorization: `Bearer ${sessions.Supply.token}`, 'idempotency-key': '3f6c1a9e-2b4d-4c8e-9a7f-1e2d3c4b5a69' };
    const first = await stack.graphql<{ scmCreateTmcItem: { id: string } }>(mutation, { code: 'ROPE-1' }, headers);
    expect(first.body.data?.scmCreateTmcItem).toMatchObject({ unit: 'м', weightedAvgPrice: 12.5 });
    const replay = await stack.graphql<{ scmCreateTmcItem: { id: string } }>(mutation, { code: 'ROPE-1' }, headers);
    expect(replay.body.data?.scmCreateTmcItem.id).toBe(first.body.data?.scmCreateTmcItem.id);
    expect((await stock.get(sessions.CEO, `${ITEMS}/${first.body.data?.scmCreateTmcItem.id}`)).body.nomenclatureCode).toBe('ROPE-1');
  });

  it('answers the same balances over GraphQL', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const id = await stock.item();
    await stock.stocked(warehouse, id, 7.25);
    const response = await stack.graphql(
      'query($warehouseId: ID) { scmTmcBalances(warehouseId: $warehouseId) { items { itemId quantity lowStock } nextCursor } }',
      { warehouseId: warehouse },
      { authorization: `Bearer ${sessions.CEO.token}` },
    );
    expect(response.body.data).toEqual({ scmTmcBalances: { items: [{ itemId: id, quantity: 7.25, lowStock: false }], nextCursor: null } });
  });
});
