import type { EntityManager } from '@mikro-orm/postgresql';
import { ScmError } from '../scm.errors.js';
import { byItem } from './document-lines.js';
import { StockBalanceEntity } from './stock-balance.entity.js';

/**
 * The one place stock changes: a balance row per item and warehouse (`quantity >= 0` in
 * the database too) and a movement per change. Stock goes down only by a conditional
 * update (`where quantity >= asked`), so concurrent takers queue on the row and none can
 * take it below zero; quantities stay `numeric` from request to column.
 */

export type MovementKind = 'receipt' | 'write_off' | 'transfer_out' | 'transfer_in' | 'inventory_adjustment' | 'reversal';

/** A numeric value as the driver reads it (text) or as a request sends it. */
export type Decimal = string | number;

export interface WarehouseRef {
  readonly id: string;
  readonly objectId: string;
}

export interface StockMove {
  readonly warehouse: WarehouseRef;
  readonly itemId: string;
  /** How much moves, above 0. */
  readonly quantity: Decimal;
  readonly kind: MovementKind;
  /** Unit value of the movement; the item's weighted average when left out. */
  readonly price?: Decimal | null;
  readonly documentType: string;
  readonly documentId: string | null;
  readonly actorId: string | null;
  readonly occurredAt?: string;
  /** A caller's key that makes the movement idempotent (unique in the organization). */
  readonly sourceKey?: string;
  /** The movement this one cancels (a counter-entry). */
  readonly reversesId?: string;
}

/** A line of a stock document: an item, how much of it moves and, on a receipt, its unit price. */
export interface StockLine {
  readonly itemId: string;
  readonly quantity: Decimal;
  readonly price?: Decimal | null;
}

/** What every movement of one document shares; each line adds its item, quantity and price. */
export type DocumentMove = Omit<StockMove, 'itemId' | 'quantity' | 'price'>;

export interface ItemRow {
  readonly id: string;
  readonly nomenclature_code: string;
  readonly active: boolean;
  readonly weighted_avg_price: string | null;
}

const BALANCE = '"operations"."stock_balance"';

export class StockLedger {
  /**
   * Locks the items in id order (no deadlocks between documents): `update` where a receipt
   * re-prices them, `share` where stock changes at their average price, so a receipt
   * reads the organization's stock after every other change has committed.
   */
  async lockItems(em: EntityManager, ids: readonly string[], mode: 'update' | 'share'): Promise<Map<string, ItemRow>> {
    const unique = [...new Set(ids)].sort();
    // raw SQL: locking (many rows in id order, `for update` or `for share` as the caller asks).
    const rows = await em.execute<ItemRow[]>(
      `select "id", "nomenclature_code", "active", "weighted_avg_price" from "operations"."tmc_item"
       where "id" = any(?::uuid[]) order by "id" for ${mode}`,
      [`{${unique.join(',')}}`],
    );
    const found = new Map(rows.map((row) => [row.id, row]));
    const missing = unique.find((id) => !found.has(id));
    if (missing) throw ScmError.notFound('TMC item', 'lines');
    return found;
  }

  /** `lockItems` for the items a document's lines name; with `active`, 422 `TMC_ITEM_INACTIVE` for an inactive one. */
  async lockLines(
    em: EntityManager,
    lines: ReadonlyArray<{ readonly itemId: string }>,
    mode: 'update' | 'share',
    options: { readonly active?: boolean } = {},
  ): Promise<void> {
    const ids = lines.map((line) => line.itemId);
    const items = await this.lockItems(em, ids, mode);
    const inactive = options.active ? [...items.values()].find((item) => !item.active) : undefined;
    if (inactive) throw ScmError.itemInactive(inactive.nomenclature_code);
  }

  /** Stock up by each line of a document, in item order (`byItem`). */
  async addLines(em: EntityManager, lines: readonly StockLine[], move: DocumentMove): Promise<void> {
    for (const line of byItem(lines)) await this.add(em, { ...move, itemId: line.itemId, quantity: line.quantity, price: line.price });
  }

  /** Stock down by each line of a document, in item order (`byItem`); 422 `TMC_INSUFFICIENT_STOCK` as `take`. */
  async takeLines(em: EntityManager, lines: readonly StockLine[], move: DocumentMove): Promise<void> {
    for (const line of byItem(lines)) await this.take(em, { ...move, itemId: line.itemId, quantity: line.quantity, price: line.price });
  }

  /** Stock up by `quantity`; returns the movement id. */
  async add(em: EntityManager, move: StockMove): Promise<string> {
    // raw SQL: locking/atomic balance (`on conflict do update` adds to the row or creates it).
    await em.execute(
      `insert into ${BALANCE} ("warehouse_id", "object_id", "item_id", "quantity") values (?, ?, ?, ?::numeric)
       on conflict ("warehouse_id", "item_id") do update set "quantity" = ${BALANCE}."quantity" + excluded."quantity", "updated_at" = now()`,
      [move.warehouse.id, move.warehouse.objectId, move.itemId, String(move.quantity)],
    );
    return this.record(em, move, 1);
  }

  /** Stock down by `quantity`, or 422 `TMC_INSUFFICIENT_STOCK` when the balance holds less. */
  async take(em: EntityManager, move: StockMove): Promise<string> {
    const quantity = String(move.quantity);
    // raw SQL: locking/atomic balance (numeric subtraction guarded by the balance in one conditional update).
    const [taken] = await em.execute<Array<{ quantity: string }>>(
      `update ${BALANCE} set "quantity" = "quantity" - ?::numeric, "updated_at" = now()
       where "warehouse_id" = ? and "item_id" = ? and "quantity" >= ?::numeric returning "quantity"`,
      [quantity, move.warehouse.id, move.itemId, quantity],
    );
    if (!taken) {
      const balance = await em.findOne(
        StockBalanceEntity,
        { warehouseId: move.warehouse.id, itemId: move.itemId },
        { fields: ['quantity'], refresh: true },
      );
      throw ScmError.insufficientStock(move.itemId, balance?.quantity ?? '0', quantity);
    }
    return this.record(em, move, -1);
  }

  private async record(em: EntityManager, move: StockMove, sign: 1 | -1): Promise<string> {
    // raw SQL: the signed numeric quantity and the item's average price are computed in the insert.
    const [row] = await em.execute<Array<{ id: string }>>(
      `insert into "operations"."tmc_movement" ("warehouse_id", "object_id", "item_id", "kind", "quantity", "price", "document_type",
         "document_id", "source_key", "reverses_id", "occurred_at", "actor_id")
       values (?, ?, ?, ?, ?::numeric * ?, coalesce(?::numeric, (select "weighted_avg_price" from "operations"."tmc_item" where "id" = ?)),
         ?, ?, ?, ?, coalesce(?::timestamptz, now()), ?)
       returning "id"`,
      [
        move.warehouse.id,
        move.warehouse.objectId,
        move.itemId,
        move.kind,
        String(move.quantity),
        sign,
        move.price === undefined || move.price === null ? null : String(move.price),
        move.itemId,
        move.documentType,
        move.documentId,
        move.sourceKey ?? null,
        move.reversesId ?? null,
        move.occurredAt ?? null,
        move.actorId,
      ],
    );
    return row!.id;
  }
}
