import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ContractInput } from '../../../contracts/operation.js';
import type { prdCreateShiftReport, prdListShiftReports } from '../../../contracts/operations/prd/shift-reports.contract.js';
import type { ShiftReportChildren, ShiftReportData } from '../../../contracts/operations/prd/types.js';
import { cursorList } from '../core/cursor-list.js';
import { publishEvent } from '../core/events.js';
import type { Principal } from '../core/principal.js';
import { requireState, transition } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { PrdError } from './prd.errors.js';
import { ShiftReportEntity } from './shift-report.entity.js';
import { ENTRY_KINDS, lockReport, REPORT_TABLE, reportMachine, sagaRunning, toReport, type ReportRow } from './shift-reports.js';

/** Shift reports: drafting, reading, the list, submitting and rejecting (approval and reversal are sagas). */

export type ReportFilter = ContractInput<typeof prdListShiftReports>;

export class ShiftReportService {
  async create(em: EntityManager, caller: Principal, input: ContractInput<typeof prdCreateShiftReport>): Promise<ShiftReportData> {
    // raw SQL: locking (`for share` holds the object while the report is written); row-level security hides other
    // organizations' objects and, for a Foreman, objects not theirs.
    const [object] = await em.execute(
      `select 1 from "operations"."production_object" where "id" = ? and "active" and "deleted_at" is null for share`,
      [input.productionObjectId],
    );
    if (!object) throw PrdError.reference('productionObjectId', 'production object');
    // raw SQL: `on conflict do nothing` answers a reported shift without aborting the transaction.
    const [row] = await em.execute<ReportRow[]>(
      `insert into ${REPORT_TABLE} ("organization_id", "production_object_id", "shift_date", "shift_type", "created_by")
       values (?, ?, ?::date, ?, ?)
       on conflict ("organization_id", "production_object_id", "shift_date", "shift_type") where "status" <> 'rejected' do nothing
       returning *`,
      [caller.organizationId, input.productionObjectId, input.shiftDate, input.shiftType, caller.userId],
    );
    if (!row) throw PrdError.duplicate();
    return toReport(row);
  }

  async get(em: EntityManager, id: string): Promise<ShiftReportData> {
    const report = await em.findOne(ShiftReportEntity, id);
    if (!report) throw OperationsError.notFound('Shift report');
    return toReport(report);
  }

  async list(em: EntityManager, filter: ReportFilter) {
    const equals = { status: filter.status, production_object_id: filter.productionObjectId };
    const conditions = { '"shift_date" >= ?::date': filter.shiftDateFrom, '"shift_date" <= ?::date': filter.shiftDateTo };
    return cursorList(em, { table: REPORT_TABLE, equals, conditions, orderBy: 'created_at', direction: 'desc' }, filter, toReport);
  }

  /** Every entry of the report by kind, oldest first. */
  async children(em: EntityManager, id: string): Promise<z.output<typeof ShiftReportChildren>> {
    await this.get(em, id);
    const snapshot: Record<string, unknown[]> = {};
    for (const [name, { entity, record }] of Object.entries(ENTRY_KINDS)) {
      const entries = await em.find(entity, { shiftReportId: id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
      snapshot[name] = entries.map((entry) => record(entry));
    }
    return snapshot as z.output<typeof ShiftReportChildren>;
  }

  async submit(em: EntityManager, caller: Principal, id: string): Promise<ShiftReportData> {
    const row = await transition(em, reportMachine, 'submit', id, {
      set: { submitted_by: caller.userId },
      setSql: { submitted_at: 'now()' },
    });
    return toReport(row);
  }

  /**
   * Deletes a draft and its entries for good (reports have no trash): by its author or an
   * Engineer (a super-admin acting in the organization too); another Foreman is refused (403).
   */
  async delete(em: EntityManager, caller: Principal, id: string): Promise<{ id: string; deleted: true }> {
    const report = await lockReport(em, id, 'update');
    requireState(reportMachine, 'delete', report.status);
    if (!caller.superAdmin && report.created_by !== caller.userId && !caller.roles.includes('Engineer'))
      throw OperationsError.forbidden('Only the author of a draft shift report or an Engineer may delete it.');
    // Entries naming an asset usage first, then the usages, then the report.
    const order = ['drilling', 'fuel', 'downtime', 'tmcUsage', 'personnel', 'blasting', 'assetUsages'] as const;
    for (const name of order) await em.nativeDelete(ENTRY_KINDS[name].entity, { shiftReportId: id });
    await em.nativeDelete(ShiftReportEntity, { id });
    return { id, deleted: true };
  }

  /** Submitted to rejected, no saga: the reason is audited (the table's trigger) and published. */
  async reject(em: EntityManager, caller: Principal, id: string, reason: string): Promise<ShiftReportData> {
    const report = await lockReport(em, id, 'update');
    requireState(reportMachine, 'reject', report.status);
    if (await sagaRunning(em, id)) throw OperationsError.sagaAlreadyRunning('shift report');
    const row = await transition(em, reportMachine, 'reject', id, {
      set: { rejected_by: caller.userId, reject_reason: reason },
      setSql: { rejected_at: 'now()' },
    });
    await publishEvent(em, {
      type: 'prd.shift-report.rejected',
      organizationId: report.organization_id,
      payload: {
        shiftReportId: id,
        productionObjectId: report.production_object_id,
        shiftDate: report.shift_date,
        shiftType: report.shift_type,
        reason,
        actorId: caller.userId,
      },
    });
    return toReport(row);
  }
}
