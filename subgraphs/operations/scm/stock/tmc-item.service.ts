import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { BodyOf, ContractInput } from '../../../../contracts/operation.js';
import type { scmCreateTmcItem, scmListTmcItems, scmUpdateTmcItem } from '../../../../contracts/operations/scm/tmc-items.contract.js';
import { TmcItem } from '../../../../contracts/operations/scm/stock-types.js';
import { cursorList } from '../../core/cursor-list.js';
import { recordMapper } from '../../core/rows.js';
import { OperationsError } from '../../operations.errors.js';
import { violatedUnique } from '../pg-values.js';
import { ScmError } from '../scm.errors.js';
import { likePattern } from '../suppliers/supplier.service.js';

type ItemData = z.output<typeof TmcItem>;

const TABLE = '"operations"."tmc_item"';
const toItem = recordMapper<ItemData>(TmcItem);

export type NewItem = ContractInput<typeof scmCreateTmcItem>;

/** The TMC nomenclature; prices change only through receipts (ReceiptService). */
export class TmcItemService {
  async create(em: EntityManager, input: NewItem): Promise<ItemData> {
    const price = input.initialPrice === undefined ? null : String(input.initialPrice);
    try {
      const [row] = await em.execute<Array<Record<string, unknown>>>(
        `insert into ${TABLE} ("nomenclature_code", "name", "category", "unit", "asset_class_id", "last_purchase_price", "weighted_avg_price")
         values (?, ?, ?, ?, ?, ?::numeric, ?::numeric) returning *`,
        [input.nomenclatureCode, input.name, input.category, input.unit, input.assetClassId ?? null, price, price],
      );
      return toItem(row!);
    } catch (error) {
      if (violatedUnique(error) !== undefined) throw ScmError.codeTaken('TMC item', 'nomenclatureCode');
      throw error;
    }
  }

  async list(em: EntityManager, input: ContractInput<typeof scmListTmcItems>) {
    const where: string[] = [];
    const params: unknown[] = [];
    if (input.category) {
      where.push(`"category" = ?`);
      params.push(input.category);
    }
    if (input.active !== undefined) {
      where.push(`"active" = ?`);
      params.push(input.active);
    }
    if (input.q) {
      where.push(`("nomenclature_code" ilike ? or "name" ilike ?)`);
      params.push(likePattern(input.q), likePattern(input.q));
    }
    return cursorList(em, { table: TABLE, where, params, orderBy: 'nomenclature_code' }, input, toItem);
  }

  async get(em: EntityManager, id: string): Promise<ItemData> {
    const [row] = await em.execute<Array<Record<string, unknown>>>(`select * from ${TABLE} where "id" = ?`, [id]);
    if (!row) throw ScmError.notFound('TMC item');
    return toItem(row);
  }

  async update(em: EntityManager, id: string, input: BodyOf<typeof scmUpdateTmcItem>): Promise<ItemData> {
    const sets = ['"updated_at" = now()'];
    const params: unknown[] = [];
    if (input.name !== undefined) {
      sets.push('"name" = ?');
      params.push(input.name);
    }
    if (input.assetClassId !== undefined) {
      sets.push('"asset_class_id" = ?');
      params.push(input.assetClassId);
    }
    const [row] = await em.execute<Array<Record<string, unknown>>>(`update ${TABLE} set ${sets.join(', ')} where "id" = ? returning *`, [
      ...params,
      id,
    ]);
    if (!row) throw ScmError.notFound('TMC item');
    return toItem(row);
  }

  /** Out of accounting once no warehouse holds it and none is in transit; the item row is locked meanwhile. */
  async deactivate(em: EntityManager, id: string): Promise<ItemData> {
    const [item] = await em.execute<Array<{ active: boolean }>>(`select "active" from ${TABLE} where "id" = ? for update`, [id]);
    if (!item) throw ScmError.notFound('TMC item');
    if (!item.active) throw OperationsError.stateConflict('TMC item', 'inactive', 'deactivate', ['active']);
    const [stock] = await em.execute<Array<{ quantity: string; held: boolean }>>(
      `select "quantity", "quantity" <> 0 as "held" from (
         select coalesce((select sum("quantity") from "operations"."stock_balance" where "item_id" = ?), 0)
              + coalesce((select sum(l."quantity") from "operations"."tmc_transfer_line" l
                          join "operations"."tmc_transfer" t on t."id" = l."tmc_transfer_id"
                          where t."status" = 'issued' and l."item_id" = ?), 0) as "quantity") as "stock"`,
      [id, id],
    );
    if (stock!.held) throw ScmError.itemHasStock(stock!.quantity);
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `update ${TABLE} set "active" = false, "updated_at" = now() where "id" = ? returning *`,
      [id],
    );
    return toItem(row!);
  }
}
