import type { EntityManager } from '@mikro-orm/postgresql';
import { PrdError } from './prd.errors.js';
import { ENTRY_KINDS, lockReport, requireState, type ReportRow } from './shift-reports.js';

/**
 * The seven kinds of entries of a draft report. The report is share-locked while an entry is
 * added, so entries queue only behind a change of the report (its submission), never behind each
 * other; a report that is not a draft refuses with 409 `STATE_CONFLICT` (and a trigger refuses any
 * other write to entries of a report that is not a draft). Records the body names are looked up
 * through row-level security: another organization's, or for a Foreman another object's, are as
 * missing as unknown ones (422 `PRD_REFERENCE_NOT_FOUND`).
 */

type Decimal = number;
type Row = Record<string, unknown>;

const dec = (value: Decimal | null | undefined) => (value === null || value === undefined ? null : String(value));
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

async function exists(em: EntityManager, sql: string, params: unknown[]): Promise<Row | undefined> {
  const [row] = await em.execute<Row[]>(sql, params);
  return row;
}

export class ShiftReportEntriesService {
  private async draft(em: EntityManager, id: string): Promise<ReportRow> {
    const report = await lockReport(em, id, 'share');
    requireState(report, 'draft', 'adding entries');
    return report;
  }

  /** Inserts an entry of `report` (its tenant and object set here); a unique violation is `duplicate`. */
  private async insert(em: EntityManager, table: string, report: ReportRow, values: Row, duplicate?: () => Error): Promise<Row> {
    const columns = Object.keys(values);
    const sql = `insert into ${table} ("organization_id", "shift_report_id", "object_id", ${columns.map((column) => `"${column}"`).join(', ')})
      values (?, ?, ?, ${columns.map(() => '?').join(', ')}) returning *`;
    try {
      const [row] = await em.execute<Row[]>(sql, [
        report.organization_id,
        report.id,
        report.production_object_id,
        ...Object.values(values),
      ]);
      return row!;
    } catch (error) {
      if (duplicate && isUniqueViolation(error)) throw duplicate();
      throw error;
    }
  }

  /** An employee of the organization (not terminated) the caller may see. */
  private async employee(em: EntityManager, id: string, param: string): Promise<void> {
    const row = await exists(em, `select "status" from "operations"."personnel" where "id" = ? for share`, [id]);
    if (!row || row.status === 'terminated') throw PrdError.reference(param, 'employee (not terminated)');
  }

  /** An asset usage of this report. */
  private async usage(em: EntityManager, report: ReportRow, id: string | null | undefined): Promise<string | null> {
    if (!id) return null;
    const row = await exists(em, `select 1 from ${ENTRY_KINDS.assetUsages.table} where "id" = ? and "shift_report_id" = ?`, [
      id,
      report.id,
    ]);
    if (!row) throw PrdError.reference('assetUsageId', 'asset usage of this report');
    return id;
  }

  async addPersonnel(
    em: EntityManager,
    input: { id: string; personnelId: string; positionId: string; hoursWorked: Decimal; downtimeHours: Decimal },
  ) {
    const report = await this.draft(em, input.id);
    await this.employee(em, input.personnelId, 'personnelId');
    const position = await exists(em, `select 1 from "operations"."position" where "id" = ? and "active" and "deleted_at" is null`, [
      input.positionId,
    ]);
    if (!position) throw PrdError.reference('positionId', 'position');
    const row = await this.insert(
      em,
      ENTRY_KINDS.personnel.table,
      report,
      {
        personnel_id: input.personnelId,
        position_id: input.positionId,
        hours_worked: dec(input.hoursWorked),
        downtime_hours: dec(input.downtimeHours),
      },
      () => PrdError.entryDuplicate('personnelId', 'employee'),
    );
    return ENTRY_KINDS.personnel.record(row);
  }

  async addAssetUsage(
    em: EntityManager,
    input: {
      id: string;
      assetId: string;
      operatorPersonnelId?: string | null;
      hoursWorked: Decimal;
      meterReadingStart: Decimal;
      meterReadingEnd: Decimal;
    },
  ) {
    const report = await this.draft(em, input.id);
    const asset = await exists(em, `select "status" from "operations"."asset" where "id" = ?`, [input.assetId]);
    if (!asset || asset.status === 'decommissioned') throw PrdError.reference('assetId', 'asset in service');
    if (input.operatorPersonnelId) await this.employee(em, input.operatorPersonnelId, 'operatorPersonnelId');
    if (input.meterReadingEnd < input.meterReadingStart) throw PrdError.invalid('meterReadingEnd', 'must not be below meterReadingStart');
    const row = await this.insert(
      em,
      ENTRY_KINDS.assetUsages.table,
      report,
      {
        asset_id: input.assetId,
        operator_personnel_id: input.operatorPersonnelId ?? null,
        hours_worked: dec(input.hoursWorked),
        meter_reading_start: dec(input.meterReadingStart),
        meter_reading_end: dec(input.meterReadingEnd),
      },
      () => PrdError.entryDuplicate('assetId', 'asset'),
    );
    return ENTRY_KINDS.assetUsages.record(row);
  }

  async addDrilling(
    em: EntityManager,
    input: { id: string; assetUsageId: string; holesDrilled: number; depthMeters: Decimal; drillBitWearPercent?: Decimal | null },
  ) {
    const report = await this.draft(em, input.id);
    await this.usage(em, report, input.assetUsageId);
    const row = await this.insert(em, ENTRY_KINDS.drilling.table, report, {
      asset_usage_id: input.assetUsageId,
      holes_drilled: input.holesDrilled,
      depth_meters: dec(input.depthMeters),
      drill_bit_wear_percent: dec(input.drillBitWearPercent),
    });
    return ENTRY_KINDS.drilling.record(row);
  }

  async addBlasting(
    em: EntityManager,
    input: { id: string; blocksBlasted: number; explosiveType: string; explosiveKg: Decimal; permitId?: string | null },
  ) {
    const report = await this.draft(em, input.id);
    const row = await this.insert(em, ENTRY_KINDS.blasting.table, report, {
      blocks_blasted: input.blocksBlasted,
      explosive_type: input.explosiveType,
      explosive_kg: dec(input.explosiveKg),
      permit_id: input.permitId ?? null,
    });
    return ENTRY_KINDS.blasting.record(row);
  }

  async addFuel(
    em: EntityManager,
    input: { id: string; assetUsageId: string; tankId: string; fuelType: string; litersIssued: Decimal; litersConsumed: Decimal },
  ) {
    const report = await this.draft(em, input.id);
    await this.usage(em, report, input.assetUsageId);
    const tank = await exists(em, `select 1 from "operations"."fuel_tank" where "id" = ? and "active"`, [input.tankId]);
    if (!tank) throw PrdError.reference('tankId', 'active fuel tank');
    if (input.litersConsumed > input.litersIssued) throw PrdError.invalid('litersConsumed', 'must not be above litersIssued');
    const row = await this.insert(em, ENTRY_KINDS.fuel.table, report, {
      asset_usage_id: input.assetUsageId,
      tank_id: input.tankId,
      fuel_type: input.fuelType,
      liters_issued: dec(input.litersIssued),
      liters_consumed: dec(input.litersConsumed),
    });
    return ENTRY_KINDS.fuel.record(row);
  }

  async addDowntime(
    em: EntityManager,
    input: {
      id: string;
      assetUsageId?: string | null;
      reasonCode: string;
      startedAt: string;
      endedAt: string;
      description?: string | null;
    },
  ) {
    const report = await this.draft(em, input.id);
    const usage = await this.usage(em, report, input.assetUsageId);
    if (Date.parse(input.endedAt) <= Date.parse(input.startedAt)) throw PrdError.invalid('endedAt', 'must be after startedAt');
    const row = await this.insert(em, ENTRY_KINDS.downtime.table, report, {
      asset_usage_id: usage,
      reason_code: input.reasonCode,
      started_at: input.startedAt,
      ended_at: input.endedAt,
      description: input.description ? input.description : null,
    });
    return ENTRY_KINDS.downtime.record(row);
  }

  async addMaterial(
    em: EntityManager,
    input: { id: string; assetUsageId?: string | null; tmcItemId: string; quantity: Decimal; unit: string; warehouseId?: string | null },
  ) {
    const report = await this.draft(em, input.id);
    const usage = await this.usage(em, report, input.assetUsageId);
    const item = await exists(em, `select "unit" from "operations"."tmc_item" where "id" = ? and "active"`, [input.tmcItemId]);
    if (!item) throw PrdError.reference('tmcItemId', 'active TMC item');
    if (item.unit !== input.unit) throw PrdError.unitMismatch(input.unit, String(item.unit));
    const warehouseId = await this.warehouse(em, report, input.warehouseId);
    const row = await this.insert(em, ENTRY_KINDS.tmcUsage.table, report, {
      asset_usage_id: usage,
      tmc_item_id: input.tmcItemId,
      warehouse_id: warehouseId,
      quantity: dec(input.quantity),
      unit: input.unit,
    });
    return ENTRY_KINDS.tmcUsage.record(row);
  }

  /** The warehouse named, or else the single active warehouse of the report's object. */
  private async warehouse(em: EntityManager, report: ReportRow, id: string | null | undefined): Promise<string> {
    if (id) {
      const row = await exists(em, `select 1 from "operations"."warehouse" where "id" = ? and "active"`, [id]);
      if (!row) throw PrdError.reference('warehouseId', 'active warehouse');
      return id;
    }
    const rows = await em.execute<Array<{ id: string }>>(
      `select "id" from "operations"."warehouse" where "object_id" = ? and "active" limit 2`,
      [report.production_object_id],
    );
    if (rows.length !== 1) throw PrdError.warehouseRequired(rows.length);
    return rows[0]!.id;
  }
}
