import type { EntityManager } from '@mikro-orm/postgresql';
import { OperationsError } from '../operations.errors.js';
import { FuelError } from './fuel.errors.js';
import type { TankRow } from './tanks.js';

/**
 * The two append-only ledgers of a tank (supplies in, issues out). An entry is never
 * changed except to point at its reversal: a counter-entry of the same quantity that
 * moves the balance back, written once (the original row is locked while it is).
 */

export interface Ledger {
  /** Schema-qualified, quoted table. */
  readonly table: string;
  /** Singular name in messages. */
  readonly entity: string;
  /** The column holding the litres of an entry. */
  readonly quantity: string;
  /** Columns a reversal copies from the entry it reverses. */
  readonly copied: readonly string[];
}

export interface LedgerRow {
  readonly id: string;
  readonly tank_id: string;
  readonly kind: string;
  readonly reversed_by_id: string | null;
  readonly [column: string]: unknown;
}

export interface Reversal {
  readonly actorId: string | null;
  readonly reason: string;
  /** Further columns of the reversal, e.g. a comment. */
  readonly columns?: Readonly<Record<string, unknown>>;
}

/**
 * Reverses entry `id`: `move` changes the tank's balance back by the entry's quantity
 * (refusing what the tank cannot take), then the counter-entry is written and linked.
 */
export async function reverseEntry(
  em: EntityManager,
  ledger: Ledger,
  id: string,
  reversal: Reversal,
  move: (tankId: string, liters: string) => Promise<TankRow>,
): Promise<LedgerRow> {
  // raw SQL: one helper over both ledger tables; the counter-entry copies the locked original in SQL.
  const [original] = await em.execute<LedgerRow[]>(`select * from ${ledger.table} where "id" = ? for update`, [id]);
  if (!original) throw OperationsError.notFound(ledger.entity);
  if (original.kind === 'reversal') throw FuelError.notReversible();
  if (original.reversed_by_id) throw FuelError.alreadyReversed(ledger.entity.toLowerCase());
  const tank = await move(original.tank_id, String(original[ledger.quantity]));
  const extra = Object.entries(reversal.columns ?? {});
  const copied = ['organization_id', 'tank_id', 'object_id', ...ledger.copied].map((column) => `"${column}"`);
  // Copied columns come from the original row; the rest are the reversal's own.
  const columns = [...copied, '"kind"', '"reversal_of_id"', '"actor_id"', '"reason"', '"balance_after_liters"'];
  const values = [...copied, `'reversal'`, '"id"', '?', '?', '?::numeric'];
  // raw SQL: the counter-entry copies the original's columns in one insert (either ledger table).
  const [row] = await em.execute<LedgerRow[]>(
    `insert into ${ledger.table} (${[...columns, ...extra.map(([column]) => `"${column}"`)].join(', ')})
     select ${[...values, ...extra.map(() => '?')].join(', ')} from ${ledger.table} where "id" = ? returning *`,
    [reversal.actorId, reversal.reason, tank.current_balance_liters, ...extra.map(([, value]) => value), id],
  );
  // raw SQL: either ledger table, named by the caller.
  await em.execute(`update ${ledger.table} set "reversed_by_id" = ?, "updated_at" = now() where "id" = ?`, [row!.id, id]);
  return row!;
}
