import { randomUUID } from 'node:crypto';
import type { OperationsRole } from '../../contracts/access.js';
import type { Call } from './operations.js';

/**
 * Shift-report fixtures over REST, for the PRD tests and for anything that needs approvable
 * reports in bulk (a chaos run, a benchmark): the records a report's entries name (a tank, a
 * warehouse with stock, assets, employees), a submitted report with every kind of entry, and the
 * exact effects its approval must have. Default quantities are multiples of 0.25, so sums of any
 * number of reports stay exact in floating point.
 */

/** Anything that calls the operations API as a role of one organization (`Actors` does). */
export interface OperationsApi {
  act(role: OperationsRole, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Call>;
}

export const REPORTS = '/api/v1/prd/shift-reports';

/** The records reports are filled in with, at one production object. */
export interface PrdFixtures {
  readonly objectId: string;
  readonly tankId: string;
  readonly warehouseId: string;
  /** Counted in кг. */
  readonly itemId: string;
  readonly assetIds: readonly string[];
  readonly personnelIds: readonly string[];
  readonly positionId: string;
}

export interface FixtureOptions {
  readonly objectId: string;
  /** Litres in the tank at the start (default 100 000, capacity 1 000 000). */
  readonly tankLiters?: number;
  /** Кг of the item in the warehouse at the start (default 10 000). */
  readonly stock?: number;
  readonly assets?: number;
  readonly personnel?: number;
}

let serial = 0;
const unique = () => `${Date.now().toString(36)}${(serial += 1)}${randomUUID().slice(0, 4)}`;
/** Inventory numbers `PR-NNNNN`: consecutive from a random start, so one process never repeats one. */
let inventory = Math.floor(Math.random() * 80_000);
const inventoryNumber = () => `PR-${String(10_000 + (inventory++ % 90_000))}`;

async function created(response: Promise<Call>, what: string): Promise<{ id: string } & Record<string, unknown>> {
  const done = await response;
  if (done.status !== 201 && done.status !== 200) throw new Error(`${what}: ${done.status} ${JSON.stringify(done.body)}`);
  return done.body;
}

/** Creates a tank, a warehouse holding an item, assets and employees at `objectId`. */
export async function prdFixtures(api: OperationsApi, options: FixtureOptions): Promise<PrdFixtures> {
  const { objectId } = options;
  const tank = await created(
    api.act('Admin', 'POST', '/api/v1/scm/fuel/tanks', {
      objectId,
      code: `PRD-${unique()}`,
      capacityLiters: 1_000_000,
      minLevelLiters: 0,
      initialBalanceLiters: options.tankLiters ?? 100_000,
    }),
    'tank',
  );
  const warehouse = await created(
    api.act('Supply', 'POST', '/api/v1/scm/warehouses', { objectId, code: `PRD-${unique()}`, name: 'Склад участка' }),
    'warehouse',
  );
  const item = await created(
    api.act('Supply', 'POST', '/api/v1/scm/tmc/items', {
      nomenclatureCode: `PRD-${unique()}`,
      name: 'Смазка буровая',
      category: 'consumable',
      unit: 'кг',
      initialPrice: 10,
    }),
    'item',
  );
  const positions = (await api.act('Admin', 'GET', '/api/v1/hr/positions')).body as Array<{ id: string; code: string }>;
  const positionId = positions.find((position) => position.code === 'DRILLER')!.id;
  const hire = async (fullName: string) =>
    (
      await created(
        api.act('Admin', 'POST', '/api/v1/hr/personnel', {
          fullName,
          tabNumber: `PRD-${unique()}`,
          positionId,
          hiredAt: '2024-01-15',
          objectId,
        }),
        'employee',
      )
    ).id;
  const personnelIds: string[] = [];
  for (let index = 0; index < (options.personnel ?? 2); index += 1) personnelIds.push(await hire(`Машинист ${index + 1}`));
  await created(
    api.act('Supply', 'POST', '/api/v1/scm/tmc/receipts', {
      warehouseId: warehouse.id,
      source: 'return',
      inboundDate: '2026-01-01',
      documentNumber: `ПН-${unique()}`,
      receivedById: personnelIds[0] ?? (await hire('Кладовщик')),
      lines: [{ itemId: item.id, quantity: options.stock ?? 10_000, price: 10 }],
    }),
    'receipt',
  );
  const assetClass = await created(
    api.act('Engineer', 'POST', '/api/v1/eam/asset-classes', { code: `PRD-${unique()}`, name: 'Буровые станки' }),
    'asset class',
  );
  const assetIds: string[] = [];
  for (let index = 0; index < (options.assets ?? 2); index += 1) {
    const asset = await created(
      api.act('Engineer', 'POST', '/api/v1/eam/assets', {
        inventoryNumber: inventoryNumber(),
        name: 'Буровой станок',
        assetClassId: assetClass.id,
        currentObjectId: objectId,
        commissionedAt: '2025-01-01',
        passport: {},
      }),
      'asset',
    );
    assetIds.push(asset.id);
  }
  return { objectId, tankId: tank.id, warehouseId: warehouse.id, itemId: item.id, assetIds, personnelIds, positionId };
}

/** What approving one report must change, by record. */
export interface ExpectedEffects {
  /** Litres taken out, per tank. */
  readonly fuel: Readonly<Record<string, number>>;
  /** Кг written off, per `warehouseId:itemId`. */
  readonly stock: Readonly<Record<string, number>>;
  /** Hours added and the meter reached, per asset. */
  readonly machineHours: Readonly<Record<string, { readonly hours: number; readonly meterEnd: number }>>;
  /** Per asset: availability and utilization of the shift. */
  readonly coefficients: Readonly<
    Record<string, { readonly availability: number; readonly utilization: number; readonly downtimeHours: number }>
  >;
  /** Added to the statistics of the object's day. */
  readonly statistics: {
    readonly productionObjectId: string;
    readonly statDate: string;
    readonly holesDrilled: number;
    readonly depthMeters: number;
    readonly blocksBlasted: number;
    readonly explosiveKg: number;
    readonly fuelIssuedLiters: number;
    readonly fuelConsumedLiters: number;
    readonly machineHours: number;
    readonly downtimeHours: number;
    readonly personnelHours: number;
    readonly personnelDowntimeHours: number;
  };
  /** Hours and downtime per employee. */
  readonly timesheet: Readonly<Record<string, { readonly hoursWorked: number; readonly downtimeHours: number }>>;
}

export interface ReportOptions {
  readonly shiftDate?: string;
  readonly shiftType?: 'day' | 'night';
  /** Who drafts and submits (default Engineer). */
  readonly author?: OperationsRole;
  readonly litersIssued?: number;
  readonly litersConsumed?: number;
  readonly materialKg?: number;
  readonly hoursWorked?: number;
  /** Downtime of the first machine, in hours (a multiple of 0.25). */
  readonly downtimeHours?: number;
  /** Leave the report a draft (default: submitted). */
  readonly submit?: boolean;
}

let shift = 0;

/** A fresh shift (date and type) per call: a day and a night per date from 2025-01-01 on. */
export function nextShift(): { shiftDate: string; shiftType: 'day' | 'night' } {
  const index = shift++;
  const date = new Date(Date.UTC(2025, 0, 1) + Math.floor(index / 2) * 86_400_000).toISOString().slice(0, 10);
  return { shiftDate: date, shiftType: index % 2 === 0 ? 'day' : 'night' };
}

const SHIFT_HOURS = 12;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * A report at the fixtures' object with one usage per asset (each with drilling and fuel), one
 * blasting entry, a downtime of the first machine, a material usage and one entry per employee;
 * submitted unless `submit: false`. Returns its id and the exact effects of approving it.
 */
export async function seedApprovableReport(
  api: OperationsApi,
  fixtures: PrdFixtures,
  options: ReportOptions = {},
): Promise<{ reportId: string; shiftDate: string; shiftType: 'day' | 'night'; expected: ExpectedEffects }> {
  const author = options.author ?? 'Engineer';
  const { shiftDate, shiftType } = options.shiftDate
    ? { shiftDate: options.shiftDate, shiftType: options.shiftType ?? 'day' }
    : nextShift();
  const report = await created(
    api.act(author, 'POST', REPORTS, { productionObjectId: fixtures.objectId, shiftDate, shiftType }),
    'shift report',
  );
  const add = (kind: string, body: Record<string, unknown>) =>
    created(api.act(author, 'POST', `${REPORTS}/${report.id}/${kind}`, body), kind);
  const hoursWorked = options.hoursWorked ?? 10.5;
  const issued = options.litersIssued ?? 120.5;
  const consumed = options.litersConsumed ?? 118.25;
  const downtime = options.downtimeHours ?? 1.5;
  const kg = options.materialKg ?? 3.25;
  const meterStart = 1000;
  const machineHours: Record<string, { hours: number; meterEnd: number }> = {};
  const coefficients: Record<string, { availability: number; utilization: number; downtimeHours: number }> = {};
  let first: string | undefined;
  for (const assetId of fixtures.assetIds) {
    const usage = await add('asset-usages', {
      assetId,
      operatorPersonnelId: fixtures.personnelIds[0] ?? null,
      hoursWorked,
      meterReadingStart: meterStart,
      meterReadingEnd: meterStart + hoursWorked,
    });
    first ??= usage.id;
    await add('drilling', { assetUsageId: usage.id, holesDrilled: 12, depthMeters: 180.5, drillBitWearPercent: 12.5 });
    await add('fuel', {
      assetUsageId: usage.id,
      tankId: fixtures.tankId,
      fuelType: 'diesel',
      litersIssued: issued,
      litersConsumed: consumed,
    });
    const down = usage.id === first ? Math.min(downtime, SHIFT_HOURS) : 0;
    const available = SHIFT_HOURS - down;
    machineHours[assetId] = { hours: hoursWorked, meterEnd: meterStart + hoursWorked };
    coefficients[assetId] = {
      availability: round4(available / SHIFT_HOURS),
      utilization: available === 0 ? 0 : round4(Math.min(hoursWorked, available) / available),
      downtimeHours: down,
    };
  }
  if (first && downtime > 0) {
    const startedAt = new Date(`${shiftDate}T10:00:00Z`);
    await add('downtime', {
      assetUsageId: first,
      reasonCode: 'breakdown',
      startedAt: startedAt.toISOString(),
      endedAt: new Date(startedAt.getTime() + downtime * 3_600_000).toISOString(),
      description: 'Замена шарошки',
    });
  }
  await add('blasting', { blocksBlasted: 2, explosiveType: 'Игданит', explosiveKg: 1250.75 });
  await add('materials', {
    assetUsageId: first ?? null,
    tmcItemId: fixtures.itemId,
    quantity: kg,
    unit: 'кг',
    warehouseId: fixtures.warehouseId,
  });
  const timesheet: Record<string, { hoursWorked: number; downtimeHours: number }> = {};
  for (const personnelId of fixtures.personnelIds) {
    await add('personnel', { personnelId, positionId: fixtures.positionId, hoursWorked: 11, downtimeHours: 0.5 });
    timesheet[personnelId] = { hoursWorked: 11, downtimeHours: 0.5 };
  }
  if (options.submit !== false) {
    const submitted = await api.act(author, 'POST', `${REPORTS}/${report.id}/submit`);
    if (submitted.status !== 200) throw new Error(`submit: ${submitted.status} ${JSON.stringify(submitted.body)}`);
  }
  const assets = fixtures.assetIds.length;
  const people = fixtures.personnelIds.length;
  return {
    reportId: report.id,
    shiftDate,
    shiftType,
    expected: {
      fuel: assets > 0 && issued > 0 ? { [fixtures.tankId]: issued * assets } : {},
      stock: { [`${fixtures.warehouseId}:${fixtures.itemId}`]: kg },
      machineHours,
      coefficients,
      statistics: {
        productionObjectId: fixtures.objectId,
        statDate: shiftDate,
        holesDrilled: 12 * assets,
        depthMeters: 180.5 * assets,
        blocksBlasted: 2,
        explosiveKg: 1250.75,
        fuelIssuedLiters: issued * assets,
        fuelConsumedLiters: consumed * assets,
        machineHours: hoursWorked * assets,
        downtimeHours: first ? downtime : 0,
        personnelHours: 11 * people,
        personnelDowntimeHours: 0.5 * people,
      },
      timesheet,
    },
  };
}

/** Starts the approval of a submitted report; returns the saga's id. */
export async function approveReport(api: OperationsApi, reportId: string, role: OperationsRole = 'CEO'): Promise<string> {
  const started = await api.act(role, 'POST', `${REPORTS}/${reportId}/approve`);
  if (started.status !== 202) throw new Error(`approve: ${started.status} ${JSON.stringify(started.body)}`);
  return started.body.sagaId;
}

/** The sum of several reports' effects (e.g. of the sagas that completed). */
export function sumEffects(all: readonly ExpectedEffects[]): {
  fuel: Record<string, number>;
  stock: Record<string, number>;
  machineHours: Record<string, number>;
} {
  const fuel: Record<string, number> = {};
  const stock: Record<string, number> = {};
  const machineHours: Record<string, number> = {};
  for (const effects of all) {
    for (const [tank, liters] of Object.entries(effects.fuel)) fuel[tank] = (fuel[tank] ?? 0) + liters;
    for (const [key, kg] of Object.entries(effects.stock)) stock[key] = (stock[key] ?? 0) + kg;
    for (const [asset, { hours }] of Object.entries(effects.machineHours)) machineHours[asset] = (machineHours[asset] ?? 0) + hours;
  }
  return { fuel, stock, machineHours };
}

/** The balances the approval changes at the fixtures, read over REST now. */
export async function readBalances(
  api: OperationsApi,
  fixtures: PrdFixtures,
): Promise<{ tankLiters: number; stockKg: number; assets: Record<string, { machineHours: number; meterReading: number | null }> }> {
  const tank = await api.act('CEO', 'GET', `/api/v1/scm/fuel/tanks/${fixtures.tankId}`);
  const stock = await api.act('Supply', 'GET', `/api/v1/scm/tmc/balances?warehouseId=${fixtures.warehouseId}&itemId=${fixtures.itemId}`);
  const assets: Record<string, { machineHours: number; meterReading: number | null }> = {};
  for (const assetId of fixtures.assetIds) {
    const asset = (await api.act('Engineer', 'GET', `/api/v1/eam/assets/${assetId}`)).body;
    assets[assetId] = { machineHours: asset.machineHours, meterReading: asset.meterReading };
  }
  return { tankLiters: tank.body.currentBalanceLiters, stockKg: stock.body.items[0]?.quantity ?? 0, assets };
}
