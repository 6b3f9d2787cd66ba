import type { EntityManager } from '@mikro-orm/postgresql';
import type { BodyOf, ContractInput } from '../../../contracts/operation.js';
import type {
  scmListFuelSupplies,
  scmRecordFuelSupply,
  scmReverseFuelSupply,
} from '../../../contracts/operations/fuel/supplies.contract.js';
import { FuelSupply, type FuelSupplyData } from '../../../contracts/operations/fuel/types.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';
import { FuelError } from './fuel.errors.js';
import { FuelSupplyEntity } from './fuel-ledger.entity.js';
import { FuelSupplyRequestEntity } from './fuel-supply-request.entity.js';
import { reverseEntry, type Ledger } from './ledger.js';
import { addToTank, takeFromTank } from './tanks.js';

export const SUPPLY_TABLE = '"operations"."fuel_supply"';
export const toSupply = recordMapper<FuelSupplyData>(FuelSupply);

const SUPPLIES: Ledger = {
  table: SUPPLY_TABLE,
  entity: 'Fuel supply',
  quantity: 'quantity_liters',
  copied: ['supplier_id', 'quantity_liters', 'supply_request_id'],
};

export type RecordSupplyInput = ContractInput<typeof scmRecordFuelSupply>;

/** Fuel receipts into tanks and their reversals, with the tank's balance changed in the same transaction. */
export class SupplyService {
  async list(em: EntityManager, input: ContractInput<typeof scmListFuelSupplies>) {
    const equals = { tank_id: input.tankId, supplier_id: input.supplierId };
    return cursorList(em, { table: SUPPLY_TABLE, equals, orderBy: 'occurred_at', direction: 'desc' }, input, toSupply);
  }

  async record(em: EntityManager, caller: Principal, input: RecordSupplyInput): Promise<FuelSupplyData> {
    if (input.supplyRequestId) {
      const request = await em.findOne(FuelSupplyRequestEntity, input.supplyRequestId, { fields: ['tankId'] });
      if (!request) throw OperationsError.notFound('Fuel supply request');
      if (request.tankId !== input.tankId) throw FuelError.mismatch('supplyRequestId', 'the request is for another tank');
    }
    const tank = await addToTank(em, input.tankId, input.quantityLiters, 'quantityLiters');
    const supply = em.create(FuelSupplyEntity, {
      organizationId: tank.organization_id,
      tankId: tank.id,
      objectId: tank.object_id,
      kind: 'receipt',
      supplierId: input.supplierId,
      quantityLiters: String(input.quantityLiters),
      // Without a time of its own, the database's `now()` (the column's default).
      ...(input.occurredAt ? { occurredAt: new Date(input.occurredAt) } : {}),
      supplyRequestId: input.supplyRequestId,
      sagaId: input.sagaId,
      actorId: caller.userId,
      balanceAfterLiters: String(tank.current_balance_liters),
    });
    await em.flush();
    return toSupply(supply);
  }

  /** The counter-entry: the receipt is kept, its quantity taken out of the tank again (never below zero). */
  async reverse(em: EntityManager, caller: Principal, id: string, input: BodyOf<typeof scmReverseFuelSupply>): Promise<FuelSupplyData> {
    const row = await reverseEntry(
      em,
      SUPPLIES,
      id,
      { actorId: caller.userId, reason: input.reason, columns: { comment: input.comment } },
      (tankId, liters) => takeFromTank(em, tankId, liters),
    );
    return toSupply(row);
  }
}
