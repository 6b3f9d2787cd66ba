import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../../contracts/operation.js';
import type { scmRegisterTmcReceipt } from '../../../../contracts/operations/scm/tmc-movements.contract.js';
import type { Principal } from '../../core/principal.js';
import { ScmError } from '../scm.errors.js';
import { SupplierEntity } from '../suppliers/supplier.entity.js';
import { insertLines } from './document-lines.js';
import { TmcReceiptEntity } from './tmc-receipt.entity.js';
import { TmcRequestEntity } from './tmc-request.entity.js';
import type { StockLedger, WarehouseRef } from './stock-ledger.js';
import type { WarehouseService } from './warehouse.service.js';

export type ReceiptInput = ContractInput<typeof scmRegisterTmcReceipt>;

const LINES = { table: 'tmc_receipt_line', parent: 'tmc_receipt_id' } as const;

/**
 * The moving weighted average of each item of a receipt, over what the organization holds
 * (every warehouse plus transfers in transit) before the receipt, computed in `numeric`
 * and rounded to 4 places; stock of unknown cost counts at the receipt's price. The last
 * purchase price is the item's last line.
 */
const REPRICE = `update "operations"."tmc_item" i set
    "weighted_avg_price" = round(
      (s."on_hand" * coalesce(i."weighted_avg_price", r."amount" / r."quantity") + r."amount") / (s."on_hand" + r."quantity"), 4),
    "last_purchase_price" = r."last_price",
    "updated_at" = now()
  from (
    select l."item_id", sum(l."quantity") as "quantity", sum(l."quantity" * l."price") as "amount",
      (array_agg(l."price" order by l."line_no" desc))[1] as "last_price"
    from "operations"."tmc_receipt_line" l where l."tmc_receipt_id" = ? group by l."item_id"
  ) r
  cross join lateral (
    select coalesce((select sum(b."quantity") from "operations"."stock_balance" b where b."item_id" = r."item_id"), 0)
         + coalesce((select sum(t."quantity") from "operations"."tmc_transfer_line" t
                     join "operations"."tmc_transfer" d on d."id" = t."tmc_transfer_id"
                     where d."status" = 'issued' and t."item_id" = r."item_id"), 0) as "on_hand"
  ) s
  where i."id" = r."item_id"`;

/** Receipts: stock up by each line, items re-priced, all in the caller's transaction. */
export class ReceiptService {
  constructor(
    private readonly warehouses: WarehouseService,
    private readonly ledger: StockLedger,
  ) {}

  async register(em: EntityManager, caller: Principal, input: ReceiptInput) {
    const warehouse = await this.warehouses.ref(em, input.warehouseId, 'warehouseId');
    await this.checkReferences(em, input);
    const id = await this.insertReceipt(em, caller, warehouse, input);
    await insertLines(em, LINES, id, input.lines, {
      price: `(l."line" ->> 'price')::numeric`,
      amount: `round((l."line" ->> 'quantity')::numeric * (l."line" ->> 'price')::numeric, 2)`,
    });
    // Re-priced before the stock goes up: the average weighs what was held before this receipt.
    // raw SQL: the weighted average re-priced in numeric from the stock on hand and the receipt's lines.
    await em.execute(REPRICE, [id]);
    await this.ledger.addLines(em, input.lines, {
      warehouse,
      kind: 'receipt',
      documentType: 'receipt',
      documentId: id,
      actorId: caller.userId,
    });
    // raw SQL: the total summed in numeric from the lines.
    const [total] = await em.execute<Array<{ total_amount: string }>>(
      `update "operations"."tmc_receipt" set "total_amount" = (select sum("amount") from "operations"."tmc_receipt_line" where "tmc_receipt_id" = ?)
       where "id" = ? returning "total_amount"`,
      [id, id],
    );
    return { inboundId: id, warehouseId: warehouse.id, totalAmount: Number(total!.total_amount), lineCount: input.lines.length };
  }

  /** The supplier, the request and the items a receipt names; the items stay locked until it commits. */
  private async checkReferences(em: EntityManager, input: ReceiptInput): Promise<void> {
    await this.checkSupplier(em, input);
    if (input.requestId) {
      if ((await em.count(TmcRequestEntity, { id: input.requestId })) === 0) throw ScmError.notFound('TMC request', 'requestId');
    }
    await this.ledger.lockLines(em, input.lines, 'update', { active: true });
  }

  private async insertReceipt(em: EntityManager, caller: Principal, warehouse: WarehouseRef, input: ReceiptInput): Promise<string> {
    const receipt = em.create(TmcReceiptEntity, {
      warehouseId: warehouse.id,
      objectId: warehouse.objectId,
      source: input.source,
      supplierId: input.supplierId ?? null,
      inboundDate: input.inboundDate,
      documentNumber: input.documentNumber,
      documentReference: input.documentReference ?? null,
      requestId: input.requestId ?? null,
      receivedById: input.receivedById,
      lineCount: input.lines.length,
      createdBy: caller.userId,
    });
    await em.flush();
    return receipt.id;
  }

  /** Goods from a supplier come from an active one; a supplier named for another source must exist all the same. */
  private async checkSupplier(em: EntityManager, input: ReceiptInput): Promise<void> {
    if (!input.supplierId) {
      if (input.source === 'supplier') throw ScmError.invalid('supplierId', 'is required when the source is supplier');
      return;
    }
    const supplier = await em.findOne(SupplierEntity, input.supplierId, { fields: ['status'] });
    if (!supplier) throw ScmError.notFound('Supplier', 'supplierId');
    if (input.source === 'supplier' && supplier.status !== 'active') throw ScmError.supplierNotActive(String(supplier.status));
  }
}
