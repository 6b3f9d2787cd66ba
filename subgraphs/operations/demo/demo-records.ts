import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationsRole } from '../../../contracts/access.js';
import { eamCreateAssetClass } from '../../../contracts/operations/eam/asset-classes.contract.js';
import { eamCreateAsset } from '../../../contracts/operations/eam/assets.contract.js';
import { scmCreateFuelTank } from '../../../contracts/operations/fuel/tanks.contract.js';
import { hrCreateBrigade } from '../../../contracts/operations/hr/brigades.contract.js';
import { hrHirePersonnel } from '../../../contracts/operations/hr/personnel.contract.js';
import { SHIFT_REPORT_ENTRY_OPERATIONS } from '../../../contracts/operations/prd/shift-report-entries.contract.js';
import { prdCreateShiftReport } from '../../../contracts/operations/prd/shift-reports.contract.js';
import { scmCreateSupplier } from '../../../contracts/operations/scm/suppliers.contract.js';
import { scmCreateTmcItem } from '../../../contracts/operations/scm/tmc-items.contract.js';
import { scmRegisterTmcReceipt } from '../../../contracts/operations/scm/tmc-movements.contract.js';
import { scmCreateWarehouse } from '../../../contracts/operations/scm/warehouses.contract.js';
import type { OperationContract } from '../../../contracts/operation.js';
import type { RunOperation } from '../../shared/subgraph.js';
import type { SigningKeys } from '../iam/signing-keys.js';
import { PositionEntity } from '../reference-books/reference-book.entity.js';

/**
 * The demo organization's working records, made at first start through the operations
 * themselves (validation, access, the services' own rules), each as the demo user whose role
 * does it: an asset class and two drill rigs, a fuel tank with a balance, personnel on the
 * seeded positions, a warehouse holding a TMC item, a supplier, a brigade, and one draft shift
 * report for today's day shift with an entry of every kind — ready for the Engineer or the
 * Foreman to submit and the CEO to approve. Everything is at NORTH, the Foreman's object.
 * It runs inside the transaction that creates the organization, so it is there entirely or not at all.
 */

export interface DemoUsers {
  readonly organizationId: string;
  readonly objectId: string;
  readonly users: ReadonlyMap<OperationsRole, string>;
}

const TOKEN_SECONDS = 300;

export async function demoRecords(tx: EntityManager, run: RunOperation, keys: SigningKeys, demo: DemoUsers): Promise<void> {
  const tokens = new Map<OperationsRole, string>();
  const as = async (role: OperationsRole, contract: OperationContract, args: Record<string, unknown>) => {
    const userId = demo.users.get(role)!;
    let token = tokens.get(role);
    if (!token) {
      token = await keys.sign({ org: demo.organizationId, roles: [role], sa: false }, userId, randomUUID(), TOKEN_SECONDS);
      tokens.set(role, token);
    }
    const headers = { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID(), 'x-request-id': 'first-start' };
    return (await run(contract, args, { em: tx, headers })) as { id: string } & Record<string, unknown>;
  };
  const objectId = demo.objectId;

  const drills = await as('Engineer', eamCreateAssetClass, {
    code: 'DRILL',
    name: 'Буровые станки',
    description: 'Станки шарошечного бурения',
  });
  const assetIds: string[] = [];
  for (const [inventoryNumber, name] of [
    ['БУ-001', 'СБШ-250 №1'],
    ['БУ-002', 'СБШ-250 №2'],
  ] as const) {
    const asset = await as('Engineer', eamCreateAsset, {
      inventoryNumber,
      name,
      assetClassId: drills.id,
      currentObjectId: objectId,
      commissionedAt: '2025-01-01',
      passport: { manufacturer: 'Рудгормаш', model: 'СБШ-250МНА-32' },
    });
    assetIds.push(asset.id);
  }
  const tank = await as('Admin', scmCreateFuelTank, {
    objectId,
    code: 'ДТ-1',
    capacityLiters: 50_000,
    minLevelLiters: 5_000,
    initialBalanceLiters: 30_000,
  });

  const positions = await tx.find(PositionEntity, { organizationId: demo.organizationId });
  const position = (code: string) => positions.find((row) => row.code === code)!.id;
  const personnel: Array<{ id: string; positionId: string }> = [];
  for (const [tabNumber, fullName, code] of [
    ['0001', 'Ахметов Ерлан', 'DRILLER'],
    ['0002', 'Иванов Сергей', 'DRILLER'],
    ['0003', 'Омаров Нурлан', 'BLASTER'],
    ['0004', 'Петров Андрей', 'FOREMAN'],
  ] as const) {
    const person = await as('Admin', hrHirePersonnel, { fullName, tabNumber, positionId: position(code), hiredAt: '2024-01-15', objectId });
    personnel.push({ id: person.id, positionId: position(code) });
  }
  await as('Foreman', hrCreateBrigade, { name: 'Буровая бригада №1', objectId, workType: 'drilling', brigadierId: personnel[3]!.id });

  await as('Supply', scmCreateSupplier, {
    bin: '971240001315',
    legalName: 'ТОО «Демо Снаб»',
    shortName: 'Демо Снаб',
    legalFormCode: 'TOO',
    categories: ['DRILL_TOOL', 'SPARE'],
  });
  const warehouse = await as('Supply', scmCreateWarehouse, { objectId, code: 'СК-1', name: 'Склад Северного карьера' });
  const grease = await as('Supply', scmCreateTmcItem, {
    nomenclatureCode: 'SM-001',
    name: 'Смазка буровая',
    category: 'consumable',
    unit: 'кг',
    initialPrice: 1_200,
  });
  await as('Supply', scmRegisterTmcReceipt, {
    warehouseId: warehouse.id,
    source: 'return',
    inboundDate: '2026-01-01',
    documentNumber: 'ПН-0001',
    receivedById: personnel[3]!.id,
    lines: [{ itemId: grease.id, quantity: 500, price: 1_200 }],
  });

  const shiftDate = new Date().toISOString().slice(0, 10);
  const report = await as('Engineer', prdCreateShiftReport, { productionObjectId: objectId, shiftDate, shiftType: 'day' });
  const entry = (kind: keyof typeof SHIFT_REPORT_ENTRY_OPERATIONS, body: Record<string, unknown>) =>
    as('Engineer', SHIFT_REPORT_ENTRY_OPERATIONS[kind].add, { id: report.id, ...body });
  const usages: string[] = [];
  for (const [index, assetId] of assetIds.entries()) {
    const usage = await entry('assetUsages', {
      assetId,
      operatorPersonnelId: personnel[index]!.id,
      hoursWorked: 10.5,
      meterReadingStart: 1_000,
      meterReadingEnd: 1_010.5,
    });
    usages.push(usage.id);
    await entry('drilling', { assetUsageId: usage.id, holesDrilled: 12, depthMeters: 180.5, drillBitWearPercent: 12.5 });
    await entry('fuel', {
      assetUsageId: usage.id,
      tankId: tank.id,
      fuelType: 'diesel',
      litersIssued: 120.5,
      litersConsumed: 118.25,
    });
  }
  const stopped = new Date(`${shiftDate}T10:00:00Z`);
  await entry('downtime', {
    assetUsageId: usages[0],
    reasonCode: 'breakdown',
    startedAt: stopped.toISOString(),
    endedAt: new Date(stopped.getTime() + 1.5 * 3_600_000).toISOString(),
    description: 'Замена шарошки',
  });
  await entry('blasting', { blocksBlasted: 2, explosiveType: 'Игданит', explosiveKg: 1_250.75 });
  await entry('materials', {
    assetUsageId: usages[0],
    tmcItemId: grease.id,
    quantity: 3.25,
    unit: 'кг',
    warehouseId: warehouse.id,
  });
  for (const person of personnel) {
    await entry('personnel', { personnelId: person.id, positionId: person.positionId, hoursWorked: 11, downtimeHours: 0.5 });
  }
}
