import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { BodyOf, ContractInput } from '../../../../contracts/operation.js';
import type { scmCreateTmcItem, scmListTmcItems, scmUpdateTmcItem } from '../../../../contracts/operations/scm/tmc-items.contract.js';
import { TmcItem } from '../../../../contracts/operations/scm/stock-types.js';
import { cursorList } from '../../core/cursor-list.js';
import { recordMapper } from '../../core/rows.js';
import { requireState } from '../../core/state-machine.js';
import { tmcItemRules } from '../machines.js';
import { flushUnique } from '../pg-values.js';
import { ScmError } from '../scm.errors.js';
import { likePattern } from '../suppliers/supplier.service.js';
import { type TmcItem as TmcItemRow, TmcItemEntity } from './tmc-item.entity.js';

type ItemData = z.output<typeof TmcItem>;

const TABLE = '"operations"."tmc_item"';
const toItem = recordMapper<ItemData>(TmcItem);

export type NewItem = ContractInput<typeof scmCreateTmcItem>;

/** The TMC nomenclature; prices change only through receipts (ReceiptService). */
export class TmcItemService {
  async create(em: EntityManager, input: NewItem): Promise<ItemData> {
    const price = input.initialPrice === undefined ? null : String(input.initialPrice);
    const item = em.create(TmcItemEntity, {
      nomenclatureCode: input.nomenclatureCode,
      name: input.name,
      category: input.category as TmcItemRow['category'],
      unit: input.unit as TmcItemRow['unit'],
      assetClassId: input.assetClassId ?? null,
      lastPurchasePrice: price,
      weightedAvgPrice: price,
    });
    await flushUnique(em, () => ScmError.codeTaken('TMC item', 'nomenclatureCode'));
    return toItem(item);
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
    const item = await em.findOne(TmcItemEntity, id);
    if (!item) throw ScmError.notFound('TMC item');
    return toItem(item);
  }

  async update(em: EntityManager, id: string, input: BodyOf<typeof scmUpdateTmcItem>): Promise<ItemData> {
    const item = await em.findOne(TmcItemEntity, id);
    if (!item) throw ScmError.notFound('TMC item');
    if (input.name !== undefined) item.name = input.name;
    if (input.assetClassId !== undefined) item.assetClassId = input.assetClassId;
    await em.flush();
    return toItem(item);
  }

  /** Out of accounting once no warehouse holds it and none is in transit; the item row is locked meanwhile. */
  async deactivate(em: EntityManager, id: string): Promise<ItemData> {
    const item = await em.findOne(TmcItemEntity, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!item) throw ScmError.notFound('TMC item');
    requireState(tmcItemRules, 'deactivate', item.active ? 'active' : 'inactive');
    // raw SQL: exact numeric sums over balances and transfers in transit, in one statement.
    const [stock] = await em.execute<Array<{ quantity: string; held: boolean }>>(
      `select "quantity", "quantity" <> 0 as "held" from (
         select coalesce((select sum("quantity") from "operations"."stock_balance" where "item_id" = ?), 0)
              + coalesce((select sum(l."quantity") from "operations"."tmc_transfer_line" l
                          join "operations"."tmc_transfer" t on t."id" = l."tmc_transfer_id"
                          where t."status" = 'issued' and l."item_id" = ?), 0) as "quantity") as "stock"`,
      [id, id],
    );
    if (stock!.held) throw ScmError.itemHasStock(stock!.quantity);
    item.active = false;
    await em.flush();
    return toItem(item);
  }
}
