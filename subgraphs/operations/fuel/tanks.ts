import type { EntityManager } from '@mikro-orm/postgresql';
import { FuelTank, type FuelTankData } from '../../../contracts/operations/fuel/types.js';
import { publishEvent } from '../core/events.js';
import { recordMapper } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';
import { FuelError } from './fuel.errors.js';
import { FuelTankEntity } from './fuel-tank.entity.js';

/**
 * A tank's balance, changed only here and only in SQL: one conditional `UPDATE` per
 * change (`numeric` arithmetic, the bound in its `WHERE`), so concurrent receipts and
 * issues serialise on the row and the balance stays exact, within 0 … capacity.
 * Falling to or below the minimum level from above it publishes the low-stock event.
 */

export const TANK_TABLE = '"operations"."fuel_tank"';
export const LOW_STOCK_EVENT = 'scm.fuel.tank.low-stock';
export const toTank = recordMapper<FuelTankData>(FuelTank);

export interface TankRow {
  readonly id: string;
  readonly organization_id: string;
  readonly object_id: string;
  readonly code: string;
  readonly current_balance_liters: string;
  readonly min_level_liters: string;
  readonly status_derived: 'normal' | 'attention' | 'critical';
  readonly [column: string]: unknown;
}

/** Litres as a bind parameter: the driver sends the decimal text PostgreSQL reads as `numeric`. */
type Liters = number | string;

async function tankExists(em: EntityManager, id: string): Promise<void> {
  if ((await em.count(FuelTankEntity, { id })) === 0) throw OperationsError.notFound('Fuel tank');
}

/** Adds `liters`; refused (422) when the balance would exceed the capacity. */
export async function addToTank(em: EntityManager, tankId: string, liters: Liters, param: string): Promise<TankRow> {
  // raw SQL: locking/atomic balance (numeric arithmetic and the capacity bound in one conditional update).
  const [row] = await em.execute<TankRow[]>(
    `update ${TANK_TABLE} set "current_balance_liters" = "current_balance_liters" + ?::numeric, "updated_at" = now()
     where "id" = ? and "current_balance_liters" + ?::numeric <= "capacity_liters" returning *`,
    [liters, tankId, liters],
  );
  if (row) return row;
  await tankExists(em, tankId);
  throw FuelError.capacityExceeded(param);
}

/** Takes `liters` out; refused (422) when the tank holds less. */
export async function takeFromTank(em: EntityManager, tankId: string, liters: Liters): Promise<TankRow> {
  // raw SQL: locking/atomic balance (numeric arithmetic and the zero bound in one conditional update).
  const [row] = await em.execute<Array<TankRow & { was_above_minimum: boolean }>>(
    `update ${TANK_TABLE} set "current_balance_liters" = "current_balance_liters" - ?::numeric, "updated_at" = now()
     where "id" = ? and "current_balance_liters" >= ?::numeric
     returning *, "current_balance_liters" + ?::numeric > "min_level_liters" as "was_above_minimum"`,
    [liters, tankId, liters, liters],
  );
  if (!row) {
    await tankExists(em, tankId);
    throw FuelError.balanceInsufficient();
  }
  const { was_above_minimum: wasAbove, ...tank } = row;
  if (wasAbove && tank.status_derived === 'critical') await publishLowStock(em, tank);
  return tank;
}

export async function publishLowStock(em: EntityManager, tank: TankRow): Promise<void> {
  await publishEvent(em, {
    type: LOW_STOCK_EVENT,
    organizationId: tank.organization_id,
    payload: {
      tankId: tank.id,
      objectId: tank.object_id,
      code: tank.code,
      currentBalanceLiters: tank.current_balance_liters,
      minLevelLiters: tank.min_level_liters,
    },
  });
}
