import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import {
  ShiftAssetUsage,
  ShiftBlastingEntry,
  ShiftDowntimeEntry,
  ShiftDrillingEntry,
  ShiftFuelEntry,
  ShiftMaterialUsage,
  ShiftPersonnelEntry,
  ShiftReport,
  type ShiftReportData,
  type ShiftReportStatusValue,
} from '../../../contracts/operations/prd/types.js';
import { recordMapper } from '../core/rows.js';
import { defineStateMachine } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { SagaEntity } from '../sagas/saga.entity.js';
import {
  ShiftAssetUsageEntity,
  ShiftBlastingEntryEntity,
  ShiftDowntimeEntryEntity,
  ShiftDrillingEntryEntity,
  ShiftFuelEntryEntity,
  ShiftMaterialUsageEntity,
  ShiftPersonnelEntryEntity,
} from './shift-entries.entity.js';

/** The shift report's table, its states (seed 002, States and transitions) and reading its rows. */

export const REPORT_TABLE = '"operations"."shift_report"';
export const REPORT_ENTITY = 'ShiftReport';
export const toReport = recordMapper<ShiftReportData>(ShiftReport);

/** What every entry entity has: its id, the report's and its creation time (their order). */
type EntryEntity = EntityName<{ id: string; shiftReportId: string; createdAt: Date }>;

const kind = <S extends z.ZodObject>(table: string, entity: object, schema: S) => ({
  table: `"operations"."${table}"`,
  entity: entity as EntryEntity,
  record: recordMapper<z.output<S>>(schema),
});

/** The seven entry kinds by their name in the snapshot: table, entity and record mapper. */
export const ENTRY_KINDS = {
  personnel: kind('shift_personnel_entry', ShiftPersonnelEntryEntity, ShiftPersonnelEntry),
  assetUsages: kind('shift_asset_usage', ShiftAssetUsageEntity, ShiftAssetUsage),
  drilling: kind('shift_drilling_entry', ShiftDrillingEntryEntity, ShiftDrillingEntry),
  blasting: kind('shift_blasting_entry', ShiftBlastingEntryEntity, ShiftBlastingEntry),
  fuel: kind('shift_fuel_entry', ShiftFuelEntryEntity, ShiftFuelEntry),
  downtime: kind('shift_downtime_entry', ShiftDowntimeEntryEntity, ShiftDowntimeEntry),
  tmcUsage: kind('shift_material_usage', ShiftMaterialUsageEntity, ShiftMaterialUsage),
} as const;

export const reportMachine = defineStateMachine<
  ShiftReportStatusValue,
  'submit' | 'approve' | 'reject' | 'reverse',
  'delete' | 'adding entries' | 'correcting entries' | 'deleting entries'
>({
  entity: 'Shift report',
  table: REPORT_TABLE,
  column: 'status',
  transitions: {
    submit: { from: ['draft'], to: 'submitted' },
    /** When the approval saga completes. */
    approve: { from: ['submitted'], to: 'approved' },
    reject: { from: ['submitted'], to: 'rejected' },
    /** When the reverse saga completes. */
    reverse: { from: ['approved'], to: 'rejected' },
  },
  /** A draft is its author's to change or throw away. */
  requires: {
    delete: ['draft'],
    'adding entries': ['draft'],
    'correcting entries': ['draft'],
    'deleting entries': ['draft'],
  },
});

export interface ReportRow {
  readonly id: string;
  readonly organization_id: string;
  readonly production_object_id: string;
  readonly shift_date: string;
  readonly shift_type: 'day' | 'night';
  readonly status: ShiftReportStatusValue;
  readonly approve_saga_id: string | null;
  readonly [column: string]: unknown;
}

/**
 * The report, locked for the rest of the transaction — `share` where entries are added (they
 * queue only behind a change of the report itself), `update` where it changes; missing, foreign
 * and out-of-scope reports alike are not found.
 */
export async function lockReport(em: EntityManager, id: string, mode: 'share' | 'update'): Promise<ReportRow> {
  // raw SQL: locking (`for share` or `for update` as the caller asks), read as the row the entry writers take.
  const [row] = await em.execute<ReportRow[]>(`select * from ${REPORT_TABLE} where "id" = ? for ${mode}`, [id]);
  if (!row) throw OperationsError.notFound('Shift report');
  return row;
}

/** A saga running (or compensating) on the report: it must finish before the report changes. */
export async function sagaRunning(em: EntityManager, reportId: string): Promise<boolean> {
  return (await em.count(SagaEntity, { entityType: REPORT_ENTITY, entityId: reportId, status: { $in: ['running', 'compensating'] } })) > 0;
}
