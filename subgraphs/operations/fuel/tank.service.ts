import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type { scmCreateFuelTank, scmListFuelTanks } from '../../../contracts/operations/fuel/tanks.contract.js';
import type { FuelTankData } from '../../../contracts/operations/fuel/types.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { OperationsError } from '../operations.errors.js';
import { ProductionObjectEntity } from '../reference-books/reference-book.entity.js';
import { FuelError } from './fuel.errors.js';
import { FuelTankEntity } from './fuel-tank.entity.js';
import { publishLowStock, TANK_TABLE, toTank, type TankRow } from './tanks.js';

export type CreateTankInput = ContractInput<typeof scmCreateFuelTank>;

/** Fuel tanks: created at a production object, their minimum level adjustable; `statusDerived` is a generated column. */
export class TankService {
  async list(em: EntityManager, input: ContractInput<typeof scmListFuelTanks>) {
    const equals = { object_id: input.objectId, status_derived: input.status, active: input.active };
    return cursorList(em, { table: TANK_TABLE, equals, orderBy: 'code' }, input, toTank);
  }

  async get(em: EntityManager, id: string): Promise<FuelTankData> {
    const tank = await em.findOne(FuelTankEntity, id);
    if (!tank) throw OperationsError.notFound('Fuel tank');
    return toTank(tank);
  }

  async create(em: EntityManager, caller: Principal, input: CreateTankInput): Promise<FuelTankData> {
    if ((await em.count(ProductionObjectEntity, { id: input.objectId, deletedAt: null })) === 0)
      throw OperationsError.notFound('Production object');
    if (input.minLevelLiters > input.capacityLiters) throw FuelError.minLevelAboveCapacity();
    if ((input.initialBalanceLiters ?? 0) > input.capacityLiters) throw FuelError.capacityExceeded('initialBalanceLiters');
    // raw SQL: `on conflict do nothing` answers a taken code without aborting the transaction.
    const [row] = await em.execute<TankRow[]>(
      `insert into ${TANK_TABLE} ("organization_id", "object_id", "code", "capacity_liters", "min_level_liters", "current_balance_liters")
       values (?, ?, ?, ?::numeric, ?::numeric, ?::numeric) on conflict ("organization_id", "code") do nothing returning *`,
      [caller.organizationId, input.objectId, input.code, input.capacityLiters, input.minLevelLiters, input.initialBalanceLiters ?? 0],
    );
    if (!row) throw FuelError.codeTaken(input.code);
    return toTank(row);
  }

  /** Changes the threshold (audited by the table's trigger); a tank it makes critical raises the low-stock alert. */
  async setMinLevel(em: EntityManager, id: string, minLevelLiters: number): Promise<FuelTankData> {
    const before = await em.findOne(FuelTankEntity, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!before) throw OperationsError.notFound('Fuel tank');
    // raw SQL: the numeric bound (at most the capacity) is checked in the update itself.
    const [row] = await em.execute<TankRow[]>(
      `update ${TANK_TABLE} set "min_level_liters" = ?::numeric, "updated_at" = now()
       where "id" = ? and ?::numeric <= "capacity_liters" returning *`,
      [minLevelLiters, id, minLevelLiters],
    );
    if (!row) throw FuelError.minLevelAboveCapacity();
    if (before.statusDerived !== 'critical' && row.status_derived === 'critical') await publishLowStock(em, row);
    return toTank(row);
  }
}
