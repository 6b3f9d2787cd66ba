import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scmRecordFuelSupply, scmReverseFuelSupply } from '../../../../contracts/operations/fuel/supplies.contract.js';
import { scmGetFuelTank, scmSetFuelTankMinLevel } from '../../../../contracts/operations/fuel/tanks.contract.js';
import { scmCreateSupplier } from '../../../../contracts/operations/scm/suppliers.contract.js';
import { FuelIssueService } from '../../../../subgraphs/operations/fuel/fuel-issue.service.js';
import { SupplyService } from '../../../../subgraphs/operations/fuel/supply.service.js';
import { TankService } from '../../../../subgraphs/operations/fuel/tank.service.js';
import { LOW_STOCK_EVENT } from '../../../../subgraphs/operations/fuel/tanks.js';
import { SupplierService } from '../../../../subgraphs/operations/scm/suppliers/supplier.service.js';
import { OperationsServices, outcome } from '../../../support/operations-services.js';

/** Fuel tank rules below HTTP: balances within [0, capacity], the minimum level, exact arithmetic. */

let ops: OperationsServices;
let supplierId: string;

const supply = (tankId: string, quantityLiters: number) =>
  ops.run('Supply', scmRecordFuelSupply, { tankId, supplierId, quantityLiters }, (input, em, caller) =>
    ops.get(SupplyService).record(em, caller, input),
  );
const issue = (tankId: string, liters: number) =>
  ops.step('Supply', 'issueFuel', (em, caller) => ops.get(FuelIssueService).issueFuel(em, tankId, liters, { actorId: caller.userId }));
const balance = async (tankId: string) =>
  (await ops.as('CEO', scmGetFuelTank, (em) => ops.get(TankService).get(em, tankId))).currentBalanceLiters;

beforeAll(async () => {
  ops = await OperationsServices.start();
  const supplier = await ops.run('Supply', scmCreateSupplier, { bin: '971240001315', legalName: 'Fuel Supplier' }, (input, em, caller) =>
    ops.get(SupplierService).create(em, caller, input),
  );
  supplierId = supplier.id;
}, 120_000);
afterAll(async () => {
  await ops?.stop();
});

describe('fuel tanks', () => {
  it('refuses a tank whose initial balance is above its capacity (FUEL_TANK_CAPACITY_EXCEEDED)', async () => {
    expect(await outcome(ops.tank({ capacityLiters: 1000, initialBalanceLiters: 1000.01 }))).toBe('FUEL_TANK_CAPACITY_EXCEEDED');
  });

  it('refuses a minimum level above the capacity, at creation and later (FUEL_MIN_LEVEL_ABOVE_CAPACITY)', async () => {
    expect(await outcome(ops.tank({ capacityLiters: 1000, initialBalanceLiters: 0, minLevelLiters: 1001 }))).toBe(
      'FUEL_MIN_LEVEL_ABOVE_CAPACITY',
    );
    const tank = await ops.tank({ capacityLiters: 1000, initialBalanceLiters: 0 });
    const refused = ops.as('Admin', scmSetFuelTankMinLevel, (em) => ops.get(TankService).setMinLevel(em, tank.id, 1000.5));
    expect(await outcome(refused)).toBe('FUEL_MIN_LEVEL_ABOVE_CAPACITY');
  });

  it('refuses a supply that would take the balance above the capacity (FUEL_TANK_CAPACITY_EXCEEDED), leaving it unchanged', async () => {
    const tank = await ops.tank({ capacityLiters: 1000, initialBalanceLiters: 900 });
    expect(await outcome(supply(tank.id, 100.01))).toBe('FUEL_TANK_CAPACITY_EXCEEDED');
    expect(await balance(tank.id)).toBe(900);
    await supply(tank.id, 100);
    expect(await balance(tank.id)).toBe(1000);
  });

  it('never issues below zero (FUEL_BALANCE_INSUFFICIENT) and keeps exact decimal balances', async () => {
    const tank = await ops.tank({ capacityLiters: 1000, initialBalanceLiters: 0.3 });
    await supply(tank.id, 0.1);
    await supply(tank.id, 0.2);
    expect(await balance(tank.id)).toBe(0.6);
    expect(await outcome(issue(tank.id, 0.61))).toBe('FUEL_BALANCE_INSUFFICIENT');
    await issue(tank.id, 0.6);
    expect(await balance(tank.id)).toBe(0);
  });

  it('never reverses a supply below zero once fuel was issued from it (FUEL_BALANCE_INSUFFICIENT)', async () => {
    const tank = await ops.tank({ capacityLiters: 1000, initialBalanceLiters: 0 });
    const receipt = await supply(tank.id, 300);
    await issue(tank.id, 250);
    const reverse = ops.as('Supply', scmReverseFuelSupply, (em, caller) =>
      ops.get(SupplyService).reverse(em, caller, receipt.id, { reason: 'Ошибка', comment: 'Поставка не состоялась' }),
    );
    expect(await outcome(reverse)).toBe('FUEL_BALANCE_INSUFFICIENT');
    expect(await balance(tank.id)).toBe(50);
  });

  it('publishes the low-stock event when an issue takes the tank from above its minimum level to it, once', async () => {
    const tank = await ops.tank({ capacityLiters: 1000, initialBalanceLiters: 300, minLevelLiters: 100 });
    const lowStock = async () =>
      (
        await ops.orm.em
          .fork()
          .execute<Array<{ balance: string }>>(
            `select payload->>'currentBalanceLiters' as balance from operations.outbox_event where type = ? and payload->>'tankId' = ? order by sequence`,
            [LOW_STOCK_EVENT, tank.id],
          )
      ).map((row) => row.balance);
    await issue(tank.id, 199);
    expect(await lowStock()).toEqual([]);
    await issue(tank.id, 1);
    await issue(tank.id, 10);
    expect(await lowStock()).toEqual(['100']);
  });
});
