import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { BodyOf, ContractInput } from '../../../../contracts/operation.js';
import type {
  scmCreateWarehouse,
  scmListWarehouses,
  scmSetWarehouseMinStock,
  scmTmcBalances,
} from '../../../../contracts/operations/scm/warehouses.contract.js';
import { StockBalance, Warehouse } from '../../../../contracts/operations/scm/stock-types.js';
import { cursorList } from '../../core/cursor-list.js';
import { recordMapper } from '../../core/rows.js';
import { ProductionObjectEntity } from '../../reference-books/reference-book.entity.js';
import { flushUnique } from '../pg-values.js';
import { ScmError } from '../scm.errors.js';
import type { WarehouseRef } from './stock-ledger.js';
import { TmcItemEntity } from './tmc-item.entity.js';
import { WarehouseEntity } from './warehouse.entity.js';

type WarehouseData = z.output<typeof Warehouse>;
type BalanceData = z.output<typeof StockBalance>;

const TABLE = '"operations"."warehouse"';
const toWarehouse = recordMapper<WarehouseData>(Warehouse);
const toBalance = recordMapper<BalanceData>(StockBalance);
/** Balances with their low-stock flag, so the flag filters and pages like a column (the cursor list names its own alias). */
const BALANCE_ROWS = `(select *, ("min_quantity" is not null and "quantity" < "min_quantity") as "low_stock" from "operations"."stock_balance")`;
const BALANCES = `${BALANCE_ROWS} as "balances"`;

/**
 * Warehouses of production objects, their minimums and balances. Reads go through
 * row-level security, so an object-scoped caller finds only their objects' warehouses —
 * another's is as missing as an unknown one.
 */
export class WarehouseService {
  async create(em: EntityManager, input: ContractInput<typeof scmCreateWarehouse>): Promise<WarehouseData> {
    if ((await em.count(ProductionObjectEntity, { id: input.objectId, deletedAt: null })) === 0)
      throw ScmError.notFound('Production object', 'objectId');
    const warehouse = em.create(WarehouseEntity, { objectId: input.objectId, code: input.code, name: input.name });
    await flushUnique(em, () => ScmError.codeTaken('warehouse', 'code'));
    return toWarehouse(warehouse);
  }

  async list(em: EntityManager, input: ContractInput<typeof scmListWarehouses>) {
    const where: string[] = [];
    const params: unknown[] = [];
    if (input.objectId) {
      where.push(`"object_id" = ?`);
      params.push(input.objectId);
    }
    if (input.active !== undefined) {
      where.push(`"active" = ?`);
      params.push(input.active);
    }
    return cursorList(em, { table: TABLE, where, params, orderBy: 'code' }, input, toWarehouse);
  }

  async get(em: EntityManager, id: string): Promise<WarehouseData> {
    const warehouse = await em.findOne(WarehouseEntity, id);
    if (!warehouse) throw ScmError.notFound('Warehouse');
    return toWarehouse(warehouse);
  }

  /** A warehouse the caller may see, named by `param` of the request (404 otherwise). */
  async ref(em: EntityManager, id: string, param?: string): Promise<WarehouseRef> {
    const warehouse = await em.findOne(WarehouseEntity, id, { fields: ['id', 'objectId'] });
    if (!warehouse) throw ScmError.notFound('Warehouse', param);
    return { id: warehouse.id, objectId: warehouse.objectId };
  }

  async setMinStock(em: EntityManager, id: string, input: BodyOf<typeof scmSetWarehouseMinStock>): Promise<BalanceData> {
    const warehouse = await this.ref(em, id);
    if ((await em.count(TmcItemEntity, { id: input.itemId })) === 0) throw ScmError.notFound('TMC item', 'itemId');
    // raw SQL: `on conflict do update` (the balance row may not exist yet), then the balance with its computed low-stock flag.
    const [row] = await em.execute<Array<{ id: string }>>(
      `insert into "operations"."stock_balance" ("warehouse_id", "object_id", "item_id", "min_quantity") values (?, ?, ?, ?::numeric)
       on conflict ("warehouse_id", "item_id") do update set "min_quantity" = excluded."min_quantity", "updated_at" = now()
       returning "id"`,
      [warehouse.id, warehouse.objectId, input.itemId, input.minQuantity === null ? null : String(input.minQuantity)],
    );
    // raw SQL: the balance with its low-stock flag computed in the select.
    const [balance] = await em.execute<Array<Record<string, unknown>>>(`select * from ${BALANCES} where "id" = ?`, [row!.id]);
    return toBalance(balance!);
  }

  async balances(em: EntityManager, input: ContractInput<typeof scmTmcBalances>) {
    const equals = { warehouse_id: input.warehouseId, item_id: input.itemId };
    return cursorList(em, { table: BALANCE_ROWS, where: input.onlyLowStock ? ['"low_stock"'] : [], equals }, input, toBalance);
  }
}
