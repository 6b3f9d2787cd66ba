import { sql } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ContractInput } from '../../../../contracts/operation.js';
import type { scmListTmcInventories, scmStartTmcInventory } from '../../../../contracts/operations/scm/tmc-inventories.contract.js';
import { TmcInventory, TmcInventoryLine } from '../../../../contracts/operations/scm/stock-types.js';
import { cursorList } from '../../core/cursor-list.js';
import type { Principal } from '../../core/principal.js';
import { recordMapper } from '../../core/rows.js';
import { transition } from '../../core/state-machine.js';
import { inventoryMachine } from '../machines.js';
import { flushUnique } from '../pg-values.js';
import { ScmError } from '../scm.errors.js';
import { linesOf } from './document-lines.js';
import type { StockLedger } from './stock-ledger.js';
import { TmcInventoryEntity, TmcInventoryLineEntity } from './tmc-inventory.entity.js';
import type { WarehouseService } from './warehouse.service.js';

type InventoryData = z.output<typeof TmcInventory>;

const TABLE = '"operations"."tmc_inventory"';
const LINE_TABLE = '"operations"."tmc_inventory_line"';
const LINES = { table: 'tmc_inventory_line', parent: 'tmc_inventory_id' } as const;
const toInventory = recordMapper<InventoryData>(TmcInventory);
const toLine = recordMapper<InventoryData['lines'][number]>(TmcInventoryLine);

export interface CountedLine {
  readonly lineId: string;
  readonly actualQuantity: number;
  readonly note?: string | null;
}

/**
 * Inventories: the start snapshots every balance of the warehouse; the completion records
 * the counts and moves each nonzero variance (actual − snapshot) onto the current balance
 * as an `inventory_adjustment`, so movements made while counting are kept.
 */
export class InventoryService {
  constructor(
    private readonly warehouses: WarehouseService,
    private readonly ledger: StockLedger,
  ) {}

  async start(em: EntityManager, caller: Principal, input: ContractInput<typeof scmStartTmcInventory>): Promise<InventoryData> {
    const warehouse = await this.warehouses.ref(em, input.warehouseId, 'warehouseId');
    const inventory = em.create(TmcInventoryEntity, {
      warehouseId: warehouse.id,
      objectId: warehouse.objectId,
      inventoryDate: input.inventoryDate,
      responsibleId: caller.userId,
      documentReference: input.documentReference ?? null,
    });
    await flushUnique(em, () => ScmError.inventoryInProgress());
    const id = inventory.id;
    // raw SQL: bulk insert of the warehouse's balances as the expected quantities.
    await em.execute(
      `insert into ${LINE_TABLE} ("tmc_inventory_id", "line_no", "item_id", "expected_quantity")
       select ?, row_number() over (order by "item_id"), "item_id", "quantity" from "operations"."stock_balance" where "warehouse_id" = ?`,
      [id, warehouse.id],
    );
    return this.get(em, id);
  }

  async get(em: EntityManager, id: string): Promise<InventoryData> {
    // Read again: state changes write the row in SQL.
    const inventory = await em.findOne(TmcInventoryEntity, id, { refresh: true });
    if (!inventory) throw ScmError.notFound('Inventory');
    return (await this.withLines(em, [inventory]))[0]!;
  }

  async list(em: EntityManager, input: ContractInput<typeof scmListTmcInventories>) {
    const equals = { status: input.status, warehouse_id: input.warehouseId };
    const page = await cursorList(em, { table: TABLE, equals, orderBy: 'created_at', direction: 'desc' }, input, (row) => row);
    return { items: await this.withLines(em, page.items), nextCursor: page.nextCursor };
  }

  async complete(em: EntityManager, caller: Principal, id: string, counted: readonly CountedLine[]): Promise<InventoryData> {
    const row = await transition(em, inventoryMachine, 'complete', id, { setSql: { completed_at: 'now()' } });
    await this.recordCounts(em, id, counted);
    // raw SQL: the variances' absolute values and signs in numeric.
    const variances = await em.execute<Array<{ id: string; item_id: string; amount: string; surplus: boolean }>>(
      `select "id", "item_id", abs("variance") as "amount", "variance" > 0 as "surplus" from ${LINE_TABLE}
       where "tmc_inventory_id" = ? and "variance" <> 0 order by "item_id", "line_no"`,
      [id],
    );
    const warehouse = { id: String(row.warehouse_id), objectId: String(row.object_id) };
    await this.ledger.lockItems(
      em,
      variances.map((line) => line.item_id),
      'share',
    );
    for (const line of variances) {
      const move = {
        warehouse,
        itemId: line.item_id,
        quantity: line.amount,
        kind: 'inventory_adjustment' as const,
        documentType: 'inventory',
        documentId: id,
        actorId: caller.userId,
      };
      const movementId = line.surplus ? await this.ledger.add(em, move) : await this.ledger.take(em, move);
      await em.nativeUpdate(TmcInventoryLineEntity, { id: line.id }, { adjustmentMovementId: movementId, updatedAt: sql<Date>`now()` });
    }
    return (await this.withLines(em, [row]))[0]!;
  }

  /** Counts of the lines given; lines left out were counted as the snapshot says. */
  private async recordCounts(em: EntityManager, id: string, counted: readonly CountedLine[]): Promise<void> {
    const ids = counted.map((line) => line.lineId);
    if (new Set(ids).size !== ids.length) throw ScmError.invalid('lines', 'a line is counted twice');
    // raw SQL: bulk update of the counted lines, variances computed in numeric.
    const updated = await em.execute<Array<{ id: string }>>(
      `update ${LINE_TABLE} l set "actual_quantity" = c."actualQuantity", "variance" = c."actualQuantity" - l."expected_quantity",
         "note" = c."note", "updated_at" = now()
       from jsonb_to_recordset(?::jsonb) as c("lineId" uuid, "actualQuantity" numeric, "note" text)
       where l."id" = c."lineId" and l."tmc_inventory_id" = ? returning l."id"`,
      [JSON.stringify(counted), id],
    );
    if (updated.length !== ids.length) {
      const known = new Set(updated.map((line) => line.id));
      throw ScmError.invalid('lines', `not lines of this inventory: ${ids.filter((line) => !known.has(line)).join(', ')}`);
    }
    // raw SQL: bulk update, the lines left out counted as expected.
    await em.execute(
      `update ${LINE_TABLE} set "actual_quantity" = "expected_quantity", "variance" = 0, "updated_at" = now()
       where "tmc_inventory_id" = ? and "actual_quantity" is null`,
      [id],
    );
  }

  private async withLines(
    em: EntityManager,
    rows: ReadonlyArray<Record<string, unknown> | { readonly id: unknown }>,
  ): Promise<InventoryData[]> {
    const lines = await linesOf(
      em,
      LINES,
      rows.map((row) => String(row.id)),
    );
    return rows.map((row) => ({ ...toInventory(row), lines: (lines.get(String(row.id)) ?? []).map(toLine) }));
  }
}
