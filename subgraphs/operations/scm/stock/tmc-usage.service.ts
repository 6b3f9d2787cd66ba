import type { EntityManager } from '@mikro-orm/postgresql';
import { ScmError } from '../scm.errors.js';
import { TmcMovementEntity } from './tmc-movement.entity.js';
import type { StockLedger } from './stock-ledger.js';
import type { WarehouseService } from './warehouse.service.js';

export interface UsageWriteOff {
  readonly warehouseId: string;
  readonly itemId: string;
  /** Above 0, up to 3 decimal places (a number, or `numeric` text). */
  readonly quantity: number | string;
  /** The caller's key of this usage (e.g. `<sagaId>:<entryId>`): the same key writes off once. */
  readonly sourceKey: string;
  /** The caller's record the usage is written off for (e.g. a shift report's material entry); its reversal keeps it too. */
  readonly documentId?: string | null;
  readonly actorId?: string | null;
  readonly occurredAt?: string;
}

const MOVEMENT = '"operations"."tmc_movement"';
const QUANTITY = /^\d{1,12}(\.\d{1,3})?$/;

/**
 * TMC usage written off stock by another module's workflow (the shift-report approval
 * saga) inside its own tenant transaction, without a REST route. Both steps are idempotent
 * so a retried saga step changes stock once: the write-off by its `sourceKey`, the
 * counter-entry by the movement it reverses.
 */
export class TmcUsageService {
  constructor(
    private readonly warehouses: WarehouseService,
    private readonly ledger: StockLedger,
  ) {}

  /** Takes the quantity off the balance (422 `TMC_INSUFFICIENT_STOCK` when short); returns the movement. */
  async writeOff(em: EntityManager, usage: UsageWriteOff): Promise<{ movementId: string }> {
    const quantity = String(usage.quantity);
    if (!QUANTITY.test(quantity) || !/[1-9]/.test(quantity)) {
      throw ScmError.invalid('quantity', 'must be above 0 with at most 3 decimal places');
    }
    const done = await em.findOne(TmcMovementEntity, { sourceKey: usage.sourceKey }, { fields: ['id'] });
    if (done) return { movementId: done.id };
    const warehouse = await this.warehouses.ref(em, usage.warehouseId, 'warehouseId');
    await this.ledger.lockItems(em, [usage.itemId], 'share');
    const movementId = await this.ledger.take(em, {
      warehouse,
      itemId: usage.itemId,
      quantity,
      kind: 'write_off',
      documentType: 'usage',
      documentId: usage.documentId ?? null,
      actorId: usage.actorId ?? null,
      occurredAt: usage.occurredAt,
      sourceKey: usage.sourceKey,
    });
    return { movementId };
  }

  /** The counter-entry of a usage write-off: the same quantity back on the same balance, the original kept. */
  async reverse(em: EntityManager, movementId: string, actorId: string | null = null): Promise<{ movementId: string }> {
    // raw SQL: the quantity to give back is the movement's, negated in numeric.
    const [original] = await em.execute<
      Array<{
        id: string;
        warehouse_id: string;
        object_id: string;
        item_id: string;
        amount: string;
        price: string | null;
        document_id: string | null;
      }>
    >(
      `select "id", "warehouse_id", "object_id", "item_id", -"quantity" as "amount", "price", "document_id" from ${MOVEMENT}
       where "id" = ? and "kind" = 'write_off' and "document_type" = 'usage'`,
      [movementId],
    );
    if (!original) throw ScmError.notFound('TMC usage write-off', 'movementId');
    const done = await em.findOne(TmcMovementEntity, { reversesId: movementId }, { fields: ['id'] });
    if (done) return { movementId: done.id };
    await this.ledger.lockItems(em, [original.item_id], 'share');
    const reversal = await this.ledger.add(em, {
      warehouse: { id: original.warehouse_id, objectId: original.object_id },
      itemId: original.item_id,
      quantity: original.amount,
      kind: 'reversal',
      price: original.price,
      documentType: 'usage',
      documentId: original.document_id,
      actorId,
      reversesId: original.id,
    });
    return { movementId: reversal };
  }
}
