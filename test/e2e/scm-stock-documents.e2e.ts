import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { createLogger } from '../../runtime/logger.js';
import { SUBGRAPHS } from '../../subgraphs/index.js';
import type { Principal } from '../../subgraphs/operations/core/principal.js';
import { enterTenant } from '../../subgraphs/operations/core/tenancy.js';
import { StockLedger } from '../../subgraphs/operations/scm/stock/stock-ledger.js';
import { TmcUsageService } from '../../subgraphs/operations/scm/stock/tmc-usage.service.js';
import { WarehouseService } from '../../subgraphs/operations/scm/stock/warehouse.service.js';
import { openOrm, type SubgraphOrm } from '../../subgraphs/shared/orm.js';
import { type Session } from '../support/operations.js';
import { INVENTORIES, REQUESTS, type StockFixtures, startStockWorld } from '../support/scm.js';
import type { TestStack } from '../support/stack.js';

/** TMC requests and inventories over REST, and the usage write-off other modules' workflows call in-process. */

let stack: TestStack;
let stock: StockFixtures;
let db: pg.Client;
let sessions: Record<OperationsRole, Session>;
let objects: Record<string, string>;

beforeAll(async () => {
  ({ stack, sessions, stock, objects } = await startStockWorld(['Admin', 'CEO', 'Engineer', 'Foreman']));
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await stack?.stop();
});

async function request(session = sessions.Foreman, warehouseObject = 'NORTH') {
  const warehouse = await stock.warehouse(objects[warehouseObject]!);
  const item = await stock.item();
  const created = await stock.post(session, REQUESTS, {
    warehouseId: warehouse,
    justification: 'Замена долот на СБШ-250',
    lines: [{ itemId: item, quantity: 4 }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { warehouse, item, id: created.body.id as string, body: created.body };
}

const move = (session: Session, id: string, verb: string, body: unknown = {}) => stock.post(session, `${REQUESTS}/${id}/${verb}`, body);

describe('TMC requests', () => {
  it('moves draft → sent → approved → in_progress → fulfilled, closed with the receipts that answered it', async () => {
    const { warehouse, item, id, body } = await request();
    expect(body).toMatchObject({ status: 'draft', createdById: sessions.Foreman.userId, lines: [{ itemId: item, quantity: 4 }] });
    expect((await move(sessions.Foreman, id, 'submit')).body).toMatchObject({ status: 'sent' });
    const approved = await move(sessions.Engineer, id, 'approve');
    expect(approved.body).toMatchObject({ status: 'approved', approvedById: sessions.Engineer.userId });
    expect((await move(sessions.Supply, id, 'start')).body.status).toBe('in_progress');
    const receipt = await stock.receive(warehouse, [{ itemId: item, quantity: 4, price: 50 }], { requestId: id });
    const closed = await move(sessions.Supply, id, 'close', { linkedInboundIds: [receipt.body.inboundId] });
    expect(closed.body).toMatchObject({ status: 'fulfilled', linkedInboundIds: [receipt.body.inboundId] });
    expect(Date.parse(closed.body.fulfilledAt)).not.toBeNaN();
    expect((await stock.get(sessions.CEO, `${REQUESTS}/${id}`)).body).toEqual(closed.body);
  });

  it('returns a sent request to draft with a comment, rejects one with a reason, both 3 to 500 characters', async () => {
    const { id } = await request();
    await move(sessions.Foreman, id, 'submit');
    for (const comment of ['ok', 'x'.repeat(501)]) expect((await move(sessions.Engineer, id, 'return', { comment })).status).toBe(422);
    const returned = await move(sessions.Engineer, id, 'return', { comment: 'Укажите диаметр' });
    expect(returned.body).toMatchObject({ status: 'draft', returnComment: 'Укажите диаметр' });
    await move(sessions.Foreman, id, 'submit');
    for (const reason of ['no', 'x'.repeat(501)]) expect((await move(sessions.Admin, id, 'reject', { reason })).status).toBe(422);
    const rejected = await move(sessions.Admin, id, 'reject', { reason: 'Есть на складе' });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectReason: 'Есть на складе' });
  });

  it('answers 409 STATE_CONFLICT to each move from a state it does not start from', async () => {
    const { id } = await request();
    const conflict = async (session: Session, verb: string, body: unknown = {}) => {
      const response = await move(session, id, verb, body);
      expect([response.status, response.body.code], verb).toEqual([409, 'STATE_CONFLICT']);
    };
    await conflict(sessions.Admin, 'approve');
    await conflict(sessions.Admin, 'start');
    await conflict(sessions.Admin, 'close', { linkedInboundIds: [randomUUID()] });
    await move(sessions.Foreman, id, 'submit');
    await conflict(sessions.Foreman, 'submit');
    await conflict(sessions.Admin, 'start');
    await move(sessions.Admin, id, 'reject', { reason: 'Не требуется' });
    await conflict(sessions.Admin, 'approve');
    await conflict(sessions.Admin, 'return', { comment: 'Исправьте' });
    await conflict(sessions.Foreman, 'submit');
  });

  it('lets only an Engineer or an Admin approve, reject or return a request', async () => {
    const { id } = await request();
    await move(sessions.Foreman, id, 'submit');
    for (const session of [sessions.Supply, sessions.Foreman, sessions.CEO]) {
      expect((await move(session, id, 'approve')).status).toBe(403);
      expect((await move(session, id, 'reject', { reason: 'Нет' + ' причины' })).status).toBe(403);
    }
    expect((await move(sessions.Admin, id, 'approve')).body.status).toBe('approved');
  });

  it('closes only with receipts into the request’s warehouse, and stays in progress otherwise', async () => {
    const { id, item } = await request();
    const elsewhere = await stock.warehouse(objects.NORTH!);
    await move(sessions.Foreman, id, 'submit');
    await move(sessions.Admin, id, 'approve');
    await move(sessions.Admin, id, 'start');
    const foreign = await stock.receive(elsewhere, [{ itemId: item, quantity: 1, price: 1 }]);
    for (const ids of [[foreign.body.inboundId], [randomUUID()]]) {
      const refused = await move(sessions.Admin, id, 'close', { linkedInboundIds: ids });
      expect([refused.status, refused.body.code]).toEqual([422, 'TMC_LINKED_RECEIPT_INVALID']);
    }
    expect((await move(sessions.Admin, id, 'close', { linkedInboundIds: [] })).status).toBe(422);
    expect((await stock.get(sessions.Admin, `${REQUESTS}/${id}`)).body.status).toBe('in_progress');
  });

  it('lets a Foreman request materials for the warehouses of their objects only, and see only those', async () => {
    const theirs = await request(sessions.Foreman, 'NORTH');
    const south = await stock.warehouse(objects.SOUTH!);
    const refused = await stock.post(sessions.Foreman, REQUESTS, {
      warehouseId: south,
      justification: 'Чужой склад',
      lines: [{ itemId: theirs.item, quantity: 1 }],
    });
    expect(refused.status).toBe(404);
    const other = await request(sessions.Engineer, 'SOUTH');
    expect((await stock.get(sessions.Foreman, `${REQUESTS}/${other.id}`)).status).toBe(404);
    const listed = await stock.get(sessions.Foreman, `${REQUESTS}?status=draft&limit=200`);
    const ids = listed.body.items.map((item: { id: string }) => item.id);
    expect(ids).toContain(theirs.id);
    expect(ids).not.toContain(other.id);
    const bounds = await stock.post(sessions.Foreman, REQUESTS, { warehouseId: theirs.warehouse, justification: 'ok', lines: [] });
    expect(bounds.body.errors.map((error: { field: string }) => error.field)).toEqual(['justification', 'lines']);
  });
});

describe('inventories', () => {
  async function stocked(quantities: readonly number[]) {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const items: string[] = [];
    for (const quantity of quantities) {
      const item = await stock.item();
      await stock.stocked(warehouse, item, quantity);
      items.push(item);
    }
    return { warehouse, items };
  }

  it('snapshots the balances at start and adjusts each nonzero variance by an inventory_adjustment movement at completion', async () => {
    const { warehouse, items } = await stocked([10, 5, 2]);
    const [a, b, c] = items as [string, string, string];
    const started = await stock.post(sessions.Supply, INVENTORIES, {
      warehouseId: warehouse,
      inventoryDate: '2026-11-22',
      documentReference: 'ИНВ-1',
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'in_progress', responsibleId: sessions.Supply.userId, completedAt: null });
    const expected = Object.fromEntries(
      started.body.lines.map((line: { itemId: string; expectedQuantity: number }) => [line.itemId, line.expectedQuantity]),
    );
    expect(expected).toEqual({ [a]: 10, [b]: 5, [c]: 2 });
    // Stock moves while counting: the adjustment is relative to the snapshot and keeps this write-off.
    await stock.writeOff(sessions.Supply, warehouse, [{ itemId: a, quantity: 1 }], objects.NORTH!);
    const lineOf = (item: string) => started.body.lines.find((line: { itemId: string }) => line.itemId === item).id;
    const completed = await stock.post(sessions.Supply, `${INVENTORIES}/${started.body.id}/complete`, {
      lines: [
        { lineId: lineOf(a), actualQuantity: 8, note: 'Две единицы не найдены' },
        { lineId: lineOf(b), actualQuantity: 7.125, note: null },
      ],
    });
    expect(completed.body.status).toBe('completed');
    const byItem = Object.fromEntries(completed.body.lines.map((line: { itemId: string }) => [line.itemId, line]));
    expect(byItem[a]).toMatchObject({ actualQuantity: 8, variance: -2, note: 'Две единицы не найдены' });
    expect(byItem[b]).toMatchObject({ actualQuantity: 7.125, variance: 2.125 });
    expect(byItem[c]).toMatchObject({ actualQuantity: 2, variance: 0, adjustmentMovementId: null });
    expect([await stock.balance(warehouse, a), await stock.balance(warehouse, b), await stock.balance(warehouse, c)]).toEqual([
      7, 7.125, 2,
    ]);
    const { rows } = await db.query(
      `select item_id, kind, quantity::text, document_id from operations.tmc_movement where id = any($1::uuid[]) order by quantity`,
      [[byItem[a].adjustmentMovementId, byItem[b].adjustmentMovementId]],
    );
    expect(rows).toEqual([
      { item_id: a, kind: 'inventory_adjustment', quantity: '-2.000', document_id: started.body.id },
      { item_id: b, kind: 'inventory_adjustment', quantity: '2.125', document_id: started.body.id },
    ]);
  });

  it('keeps one inventory in progress per warehouse and completes each once', async () => {
    const { warehouse } = await stocked([1]);
    const started = await stock.post(sessions.Supply, INVENTORIES, { warehouseId: warehouse, inventoryDate: '2026-11-22' });
    const second = await stock.post(sessions.Supply, INVENTORIES, { warehouseId: warehouse, inventoryDate: '2026-11-22' });
    expect([second.status, second.body.code]).toEqual([409, 'TMC_INVENTORY_IN_PROGRESS']);
    const lines = [{ lineId: started.body.lines[0].id, actualQuantity: 1 }];
    expect((await stock.post(sessions.Supply, `${INVENTORIES}/${started.body.id}/complete`, { lines })).status).toBe(200);
    const again = await stock.post(sessions.Supply, `${INVENTORIES}/${started.body.id}/complete`, { lines });
    expect([again.status, again.body.code]).toEqual([409, 'STATE_CONFLICT']);
    expect((await stock.post(sessions.Supply, INVENTORIES, { warehouseId: warehouse, inventoryDate: '2026-11-23' })).status).toBe(201);
    const listed = await stock.get(sessions.CEO, `${INVENTORIES}?warehouseId=${warehouse}&status=completed`);
    expect(listed.body.items.map((inventory: { id: string }) => inventory.id)).toEqual([started.body.id]);
  });

  it('refuses unknown, repeated or negative counts, and a shortfall below what is left, completing nothing', async () => {
    const { warehouse, items } = await stocked([5]);
    const started = await stock.post(sessions.Supply, INVENTORIES, { warehouseId: warehouse, inventoryDate: '2026-11-22' });
    const path = `${INVENTORIES}/${started.body.id}/complete`;
    const line = started.body.lines[0].id;
    for (const lines of [
      [{ lineId: randomUUID(), actualQuantity: 1 }],
      [
        { lineId: line, actualQuantity: 1 },
        { lineId: line, actualQuantity: 2 },
      ],
      [{ lineId: line, actualQuantity: -1 }],
      [],
    ]) {
      expect((await stock.post(sessions.Supply, path, { lines })).status, JSON.stringify(lines)).toBe(422);
    }
    await stock.writeOff(sessions.Supply, warehouse, [{ itemId: items[0]!, quantity: 5 }], objects.NORTH!);
    const short = await stock.post(sessions.Supply, path, { lines: [{ lineId: line, actualQuantity: 3 }] });
    expect([short.status, short.body.code]).toEqual([422, 'TMC_INSUFFICIENT_STOCK']);
    expect((await stock.get(sessions.Supply, `${INVENTORIES}/${started.body.id}`)).body.status).toBe('in_progress');
  });
});

describe('usage written off by another module’s workflow', () => {
  let orm: SubgraphOrm;
  const usage = new TmcUsageService(new WarehouseService(), new StockLedger());

  beforeAll(async () => {
    orm = await openOrm(SUBGRAPHS.operations.database, { databaseUrl: stack.databaseUrl, logger: createLogger('silent'), poolMax: 2 });
  });
  afterAll(async () => {
    await orm?.close(true);
  });

  /** Runs in a tenant transaction as the saga's step would: the organization set, every object visible. */
  const inTenant = <T>(work: (em: EntityManager) => Promise<T>) =>
    orm.em.fork().transactional(async (tx) => {
      const principal = {
        organizationId: sessions.Admin.organizationId,
        objects: '*',
        userId: sessions.Admin.userId,
      } as unknown as Principal;
      await enterTenant(tx as EntityManager, principal, 'prdShiftReportApproveSaga', randomUUID());
      return work(tx as EntityManager);
    });

  it('writes usage off once per source key and puts it back by a counter-entry, keeping the original movement', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const item = await stock.item();
    await stock.stocked(warehouse, item, 10);
    const sourceKey = `saga-${randomUUID()}:materials:1`;
    const writeOff = () => inTenant((em) => usage.writeOff(em, { warehouseId: warehouse, itemId: item, quantity: 2.5, sourceKey }));
    const first = await writeOff();
    expect(await writeOff()).toEqual(first);
    expect(await stock.balance(warehouse, item)).toBe(7.5);
    const reversal = await inTenant((em) => usage.reverse(em, first.movementId));
    expect(await inTenant((em) => usage.reverse(em, first.movementId))).toEqual(reversal);
    expect(await stock.balance(warehouse, item)).toBe(10);
    const { rows } = await db.query(
      `select kind, quantity::text, reverses_id from operations.tmc_movement where id = any($1::uuid[]) order by quantity`,
      [[first.movementId, reversal.movementId]],
    );
    expect(rows).toEqual([
      { kind: 'write_off', quantity: '-2.500', reverses_id: null },
      { kind: 'reversal', quantity: '2.500', reverses_id: first.movementId },
    ]);
  });

  it('refuses usage beyond the balance and changes nothing', async () => {
    const warehouse = await stock.warehouse(objects.NORTH!);
    const item = await stock.item();
    await stock.stocked(warehouse, item, 1);
    await expect(
      inTenant((em) => usage.writeOff(em, { warehouseId: warehouse, itemId: item, quantity: 1.001, sourceKey: randomUUID() })),
    ).rejects.toMatchObject({
      code: 'TMC_INSUFFICIENT_STOCK',
      status: 422,
    });
    await expect(
      inTenant((em) => usage.writeOff(em, { warehouseId: warehouse, itemId: item, quantity: 0, sourceKey: randomUUID() })),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(await stock.balance(warehouse, item)).toBe(1);
  });
});
