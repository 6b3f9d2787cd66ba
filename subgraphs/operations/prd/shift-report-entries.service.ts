import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AssetEntity } from '../eam/asset.entity.js';
import { FuelTankEntity } from '../fuel/fuel-tank.entity.js';
import { PersonnelEntity } from '../hr/personnel.entity.js';
import { TmcItemEntity } from '../scm/stock/tmc-item.entity.js';
import { WarehouseEntity } from '../scm/stock/warehouse.entity.js';
import type { BodyOf } from '../../../contracts/operation.js';
import type { SHIFT_REPORT_ENTRY_OPERATIONS } from '../../../contracts/operations/prd/shift-report-entries.contract.js';
import { SHIFT_HOURS } from '../../../contracts/operations/prd/types.js';
import { requireState } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { PrdError } from './prd.errors.js';
import { ShiftAssetUsageEntity } from './shift-entries.entity.js';
import { ENTRY_KINDS, lockReport, reportMachine, type ReportRow } from './shift-reports.js';

/**
 * The seven kinds of entries of a draft report: added, corrected and deleted. The report is
 * share-locked while an entry changes, so entries queue only behind a change of the report (its
 * submission), never behind each other — except personnel entries and asset usages, whose bounds
 * span entries (an employee's hours in a report at most 24, a machine's at most the shift's
 * hours): those lock the report for update, so two writers cannot each stay under a bound their
 * sum exceeds. A report that is not a draft refuses with 409 `STATE_CONFLICT` (and a trigger
 * refuses any other write to entries of a report that is not a draft). A correction merges the
 * fields named into the entry and checks the result exactly as an addition is checked. Records
 * the body names are looked up through row-level security: another organization's, or for a
 * Foreman another object's, are as missing as unknown ones (422 `PRD_REFERENCE_NOT_FOUND`).
 */

type Decimal = number;
type Row = Record<string, unknown>;
type EntryName = keyof typeof ENTRY_KINDS;

const dec = (value: Decimal | null | undefined) => (value === null || value === undefined ? null : String(value));
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const str = (value: unknown) => (value === null || value === undefined ? null : String(value));
const iso = (value: unknown) => new Date(value as string | Date).toISOString();

/** Hours a person may work in one report. */
const PERSON_HOURS = 24;

async function exists(em: EntityManager, sql: string, params: unknown[]): Promise<Row | undefined> {
  // raw SQL: the entry under correction locked in its kind's table, and a reference-book row.
  const [row] = await em.execute<Row[]>(sql, params);
  return row;
}

/** The fields named in a correction (absent ones keep the entry's value; `null` clears). */
const merge = <T extends object>(current: T, patch: Partial<T>): T => {
  const named = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  return { ...current, ...named } as T;
};

/** The body of the add operation of an entry kind. */
type AddBody<K extends keyof typeof SHIFT_REPORT_ENTRY_OPERATIONS> = BodyOf<(typeof SHIFT_REPORT_ENTRY_OPERATIONS)[K]['add']>;

type PersonnelInput = AddBody<'personnel'>;
type AssetUsageInput = AddBody<'assetUsages'>;
type DrillingInput = AddBody<'drilling'>;
type BlastingInput = AddBody<'blasting'>;
// An entry read back for a correction holds its column's text: the contract's enum is judged on the way in.
type FuelInput = Omit<AddBody<'fuel'>, 'fuelType'> & { fuelType: string };
type DowntimeInput = Omit<AddBody<'downtime'>, 'reasonCode'> & { reasonCode: string };
type MaterialInput = AddBody<'materials'>;

/**
 * One entry kind: its snapshot name, the lock its writes take on the report, the entry as input
 * (for a correction to merge into), and the checked columns of an input (`entryId` is the entry
 * being corrected, left out of bounds across entries).
 */
interface EntrySpec<I> {
  readonly name: EntryName;
  readonly lock: 'share' | 'update';
  readonly stamped: boolean;
  fromRow(row: Row): I;
  columns(em: EntityManager, report: ReportRow, input: I, entryId: string | null): Promise<Row>;
}

export class ShiftReportEntriesService {
  private async draft(
    em: EntityManager,
    id: string,
    mode: 'share' | 'update',
    action: 'adding entries' | 'correcting entries' | 'deleting entries',
  ): Promise<ReportRow> {
    const report = await lockReport(em, id, mode);
    requireState(reportMachine, action, report.status);
    return report;
  }

  /** Inserts an entry of `report` (its tenant and object set here). */
  private async insert(em: EntityManager, table: string, report: ReportRow, values: Row): Promise<Row> {
    const columns = Object.keys(values);
    const sql = `insert into ${table} ("organization_id", "shift_report_id", "object_id", ${columns.map((column) => `"${column}"`).join(', ')})
      values (?, ?, ?, ${columns.map(() => '?').join(', ')}) returning *`;
    // raw SQL: one writer for the seven entry tables, from each kind's column spec.
    const [row] = await em.execute<Row[]>(sql, [report.organization_id, report.id, report.production_object_id, ...Object.values(values)]);
    return row!;
  }

  /** The entry of the report, locked; 404 when it is not one of the report's. */
  private async entry(em: EntityManager, table: string, reportId: string, entryId: string): Promise<Row> {
    const row = await exists(em, `select * from ${table} where "id" = ? and "shift_report_id" = ? for update`, [entryId, reportId]);
    if (!row) throw OperationsError.notFound('Shift report entry');
    return row;
  }

  private async add<I>(em: EntityManager, spec: EntrySpec<I>, id: string, input: I) {
    const report = await this.draft(em, id, spec.lock, 'adding entries');
    const kind = ENTRY_KINDS[spec.name];
    const row = await this.insert(em, kind.table, report, await spec.columns(em, report, input, null));
    return kind.record(row);
  }

  private async update<I extends object>(em: EntityManager, spec: EntrySpec<I>, id: string, entryId: string, patch: Partial<I>) {
    const report = await this.draft(em, id, spec.lock, 'correcting entries');
    const kind = ENTRY_KINDS[spec.name];
    const current = await this.entry(em, kind.table, report.id, entryId);
    const values = await spec.columns(em, report, merge(spec.fromRow(current), patch), entryId);
    const columns = Object.keys(values);
    // raw SQL: one writer for the seven entry tables, from each kind's column spec.
    const [row] = await em.execute<Row[]>(
      `update ${kind.table} set ${columns.map((column) => `"${column}" = ?`).join(', ')}${spec.stamped ? ', "updated_at" = now()' : ''}
       where "id" = ? returning *`,
      [...Object.values(values), entryId],
    );
    return kind.record(row!);
  }

  private async remove(em: EntityManager, name: EntryName, id: string, entryId: string) {
    const report = await this.draft(em, id, 'share', 'deleting entries');
    const { table, entity } = ENTRY_KINDS[name];
    await this.entry(em, table, report.id, entryId);
    if (name === 'assetUsages') await this.unreferenced(em, entryId);
    await em.nativeDelete(entity, { id: entryId });
    return { id: entryId, deleted: true as const };
  }

  /** 409 `PRD_ENTRY_IN_USE` naming the entries that name the usage: they would lose their machine. */
  private async unreferenced(em: EntityManager, usageId: string): Promise<void> {
    const kinds = { drilling: 'drilling', fuel: 'fuel', downtime: 'downtime', tmcUsage: 'materials' } as const;
    const users: Array<{ kind: string; id: string }> = [];
    for (const [name, kind] of Object.entries(kinds)) {
      // raw SQL: one query over four entry tables that name a usage.
      const rows = await em.execute<Array<{ id: string }>>(
        `select "id" from ${ENTRY_KINDS[name as EntryName].table} where "asset_usage_id" = ? order by "created_at", "id"`,
        [usageId],
      );
      users.push(...rows.map((row) => ({ kind, id: row.id })));
    }
    if (users.length > 0) throw PrdError.entryInUse(users);
  }

  /** An employee of the organization (not terminated) the caller may see. */
  private async employee(em: EntityManager, id: string, param: string): Promise<void> {
    const row = await em.findOne(PersonnelEntity, id, { fields: ['status'], lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
    if (!row || row.status === 'terminated') throw PrdError.reference(param, 'employee (not terminated)');
  }

  /** An asset usage of this report. */
  private async usage(em: EntityManager, report: ReportRow, id: string | null | undefined): Promise<string | null> {
    if (!id) return null;
    if ((await em.count(ShiftAssetUsageEntity, { id, shiftReportId: report.id })) === 0)
      throw PrdError.reference('assetUsageId', 'asset usage of this report');
    return id;
  }

  /**
   * 422 on `hoursWorked` when the hours of `column` = `value` in the report's entries of `table`,
   * with `hours` in place of the entry being corrected, would pass `limit`. Summed as `numeric`.
   */
  private async withinHours(
    em: EntityManager,
    table: string,
    report: ReportRow,
    where: { column: string; value: string },
    hours: Decimal,
    entryId: string | null,
    limit: number,
    what: string,
  ): Promise<void> {
    // raw SQL: the hours summed and compared as exact numerics.
    const [row] = await em.execute<Array<{ total: string; over: boolean }>>(
      `select (coalesce(sum("hours_worked"), 0) + ?::numeric)::text as "total", coalesce(sum("hours_worked"), 0) + ?::numeric > ? as "over"
       from ${table} where "shift_report_id" = ? and "${where.column}" = ? and (?::uuid is null or "id" <> ?::uuid)`,
      [String(hours), String(hours), limit, report.id, where.value, entryId, entryId],
    );
    if (row!.over)
      throw PrdError.invalid('hoursWorked', `${what} in this report would add up to ${Number(row!.total)} hours, above ${limit}`);
  }

  private readonly personnel: EntrySpec<PersonnelInput> = {
    name: 'personnel',
    lock: 'update',
    stamped: true,
    fromRow: (row) => ({
      personnelId: String(row.personnel_id),
      positionId: String(row.position_id),
      hoursWorked: num(row.hours_worked)!,
      downtimeHours: num(row.downtime_hours)!,
    }),
    columns: async (em, report, input, entryId) => {
      await this.employee(em, input.personnelId, 'personnelId');
      const position = await exists(em, `select 1 from "operations"."position" where "id" = ? and "active" and "deleted_at" is null`, [
        input.positionId,
      ]);
      if (!position) throw PrdError.reference('positionId', 'position');
      await this.withinHours(
        em,
        ENTRY_KINDS.personnel.table,
        report,
        { column: 'personnel_id', value: input.personnelId },
        input.hoursWorked,
        entryId,
        PERSON_HOURS,
        'the employee’s hours',
      );
      return {
        personnel_id: input.personnelId,
        position_id: input.positionId,
        hours_worked: dec(input.hoursWorked),
        downtime_hours: dec(input.downtimeHours),
      };
    },
  };

  private readonly assetUsage: EntrySpec<AssetUsageInput> = {
    name: 'assetUsages',
    lock: 'update',
    stamped: true,
    fromRow: (row) => ({
      assetId: String(row.asset_id),
      operatorPersonnelId: str(row.operator_personnel_id),
      hoursWorked: num(row.hours_worked)!,
      meterReadingStart: num(row.meter_reading_start)!,
      meterReadingEnd: num(row.meter_reading_end)!,
    }),
    columns: async (em, report, input, entryId) => {
      const asset = await em.findOne(AssetEntity, input.assetId, { fields: ['status'], refresh: true });
      if (!asset || asset.status === 'decommissioned') throw PrdError.reference('assetId', 'asset in service');
      if (input.operatorPersonnelId) await this.employee(em, input.operatorPersonnelId, 'operatorPersonnelId');
      if (input.meterReadingEnd < input.meterReadingStart) throw PrdError.invalid('meterReadingEnd', 'must not be below meterReadingStart');
      await this.withinHours(
        em,
        ENTRY_KINDS.assetUsages.table,
        report,
        { column: 'asset_id', value: input.assetId },
        input.hoursWorked,
        entryId,
        SHIFT_HOURS,
        'the machine’s hours',
      );
      return {
        asset_id: input.assetId,
        operator_personnel_id: input.operatorPersonnelId ?? null,
        hours_worked: dec(input.hoursWorked),
        meter_reading_start: dec(input.meterReadingStart),
        meter_reading_end: dec(input.meterReadingEnd),
      };
    },
  };

  private readonly drilling: EntrySpec<DrillingInput> = {
    name: 'drilling',
    lock: 'share',
    stamped: false,
    fromRow: (row) => ({
      assetUsageId: String(row.asset_usage_id),
      holesDrilled: Number(row.holes_drilled),
      depthMeters: num(row.depth_meters)!,
      drillBitWearPercent: num(row.drill_bit_wear_percent),
    }),
    columns: async (em, report, input) => {
      await this.usage(em, report, input.assetUsageId);
      return {
        asset_usage_id: input.assetUsageId,
        holes_drilled: input.holesDrilled,
        depth_meters: dec(input.depthMeters),
        drill_bit_wear_percent: dec(input.drillBitWearPercent),
      };
    },
  };

  private readonly blasting: EntrySpec<BlastingInput> = {
    name: 'blasting',
    lock: 'share',
    stamped: false,
    fromRow: (row) => ({
      blocksBlasted: Number(row.blocks_blasted),
      explosiveType: String(row.explosive_type),
      explosiveKg: num(row.explosive_kg)!,
      permitId: str(row.permit_id),
    }),
    columns: async (_em, _report, input) => ({
      blocks_blasted: input.blocksBlasted,
      explosive_type: input.explosiveType,
      explosive_kg: dec(input.explosiveKg),
      permit_id: input.permitId ?? null,
    }),
  };

  private readonly fuel: EntrySpec<FuelInput> = {
    name: 'fuel',
    lock: 'share',
    stamped: false,
    fromRow: (row) => ({
      assetUsageId: String(row.asset_usage_id),
      tankId: String(row.tank_id),
      fuelType: String(row.fuel_type),
      litersIssued: num(row.liters_issued)!,
      litersConsumed: num(row.liters_consumed)!,
    }),
    columns: async (em, report, input) => {
      await this.usage(em, report, input.assetUsageId);
      if ((await em.count(FuelTankEntity, { id: input.tankId, active: true })) === 0)
        throw PrdError.reference('tankId', 'active fuel tank');
      if (input.litersConsumed > input.litersIssued) throw PrdError.invalid('litersConsumed', 'must not be above litersIssued');
      return {
        asset_usage_id: input.assetUsageId,
        tank_id: input.tankId,
        fuel_type: input.fuelType,
        liters_issued: dec(input.litersIssued),
        liters_consumed: dec(input.litersConsumed),
      };
    },
  };

  private readonly downtime: EntrySpec<DowntimeInput> = {
    name: 'downtime',
    lock: 'share',
    stamped: false,
    fromRow: (row) => ({
      assetUsageId: str(row.asset_usage_id),
      reasonCode: String(row.reason_code),
      startedAt: iso(row.started_at),
      endedAt: iso(row.ended_at),
      description: str(row.description),
    }),
    columns: async (em, report, input) => {
      const usage = await this.usage(em, report, input.assetUsageId);
      if (Date.parse(input.endedAt) <= Date.parse(input.startedAt)) throw PrdError.invalid('endedAt', 'must be after startedAt');
      return {
        asset_usage_id: usage,
        reason_code: input.reasonCode,
        started_at: input.startedAt,
        ended_at: input.endedAt,
        description: input.description ? input.description : null,
      };
    },
  };

  private readonly material: EntrySpec<MaterialInput> = {
    name: 'tmcUsage',
    lock: 'share',
    stamped: false,
    fromRow: (row) => ({
      assetUsageId: str(row.asset_usage_id),
      tmcItemId: String(row.tmc_item_id),
      quantity: num(row.quantity)!,
      unit: String(row.unit),
      warehouseId: str(row.warehouse_id),
    }),
    columns: async (em, report, input) => {
      const usage = await this.usage(em, report, input.assetUsageId);
      const item = await em.findOne(TmcItemEntity, { id: input.tmcItemId, active: true }, { fields: ['unit'], refresh: true });
      if (!item) throw PrdError.reference('tmcItemId', 'active TMC item');
      if (item.unit !== input.unit) throw PrdError.unitMismatch(input.unit, item.unit);
      const warehouseId = await this.warehouse(em, report, input.warehouseId);
      return {
        asset_usage_id: usage,
        tmc_item_id: input.tmcItemId,
        warehouse_id: warehouseId,
        quantity: dec(input.quantity),
        unit: input.unit,
      };
    },
  };

  /** The warehouse named, or else the single active warehouse of the report's object. */
  private async warehouse(em: EntityManager, report: ReportRow, id: string | null | undefined): Promise<string> {
    if (id) {
      if ((await em.count(WarehouseEntity, { id, active: true })) === 0) throw PrdError.reference('warehouseId', 'active warehouse');
      return id;
    }
    const rows = await em.find(WarehouseEntity, { objectId: report.production_object_id, active: true }, { fields: ['id'], limit: 2 });
    if (rows.length !== 1) throw PrdError.warehouseRequired(rows.length);
    return rows[0]!.id;
  }

  addPersonnel = (em: EntityManager, { id, ...input }: { id: string } & PersonnelInput) => this.add(em, this.personnel, id, input);
  addAssetUsage = (em: EntityManager, { id, ...input }: { id: string } & AssetUsageInput) => this.add(em, this.assetUsage, id, input);
  addDrilling = (em: EntityManager, { id, ...input }: { id: string } & DrillingInput) => this.add(em, this.drilling, id, input);
  addBlasting = (em: EntityManager, { id, ...input }: { id: string } & BlastingInput) => this.add(em, this.blasting, id, input);
  addFuel = (em: EntityManager, { id, ...input }: { id: string } & FuelInput) => this.add(em, this.fuel, id, input);
  addDowntime = (em: EntityManager, { id, ...input }: { id: string } & DowntimeInput) => this.add(em, this.downtime, id, input);
  addMaterial = (em: EntityManager, { id, ...input }: { id: string } & MaterialInput) => this.add(em, this.material, id, input);

  updatePersonnel = (em: EntityManager, { id, entryId, ...patch }: Corr<PersonnelInput>) =>
    this.update(em, this.personnel, id, entryId, patch);
  updateAssetUsage = (em: EntityManager, { id, entryId, ...patch }: Corr<AssetUsageInput>) =>
    this.update(em, this.assetUsage, id, entryId, patch);
  updateDrilling = (em: EntityManager, { id, entryId, ...patch }: Corr<DrillingInput>) =>
    this.update(em, this.drilling, id, entryId, patch);
  updateBlasting = (em: EntityManager, { id, entryId, ...patch }: Corr<BlastingInput>) =>
    this.update(em, this.blasting, id, entryId, patch);
  updateFuel = (em: EntityManager, { id, entryId, ...patch }: Corr<FuelInput>) => this.update(em, this.fuel, id, entryId, patch);
  updateDowntime = (em: EntityManager, { id, entryId, ...patch }: Corr<DowntimeInput>) =>
    this.update(em, this.downtime, id, entryId, patch);
  updateMaterial = (em: EntityManager, { id, entryId, ...patch }: Corr<MaterialInput>) =>
    this.update(em, this.material, id, entryId, patch);

  /** Deletes an entry of a draft report; an asset usage other entries name is refused (409 `PRD_ENTRY_IN_USE`). */
  delete = (em: EntityManager, name: EntryName, input: { id: string; entryId: string }) => this.remove(em, name, input.id, input.entryId);
}

/** A correction's input: the report, the entry and the fields named. */
type Corr<I> = { id: string; entryId: string } & Partial<I>;
