import { sql } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../core/principal.js';
import { requireState } from '../core/state-machine.js';
import type { SagaStarter } from '../sagas/saga.js';
import type { ShiftReportSagas } from './shift-report-sagas.js';
import { ShiftReportEntity } from './shift-report.entity.js';
import { lockReport, REPORT_ENTITY, reportMachine } from './shift-reports.js';

/**
 * Approving and reversing a shift report: each starts its saga in the caller's transaction (one
 * saga at a time per report, else 409 `SAGA_ALREADY_RUNNING`); the report changes state when the
 * saga completes, and stays as it was when the saga is compensated.
 */
export class ShiftReportApprovalService {
  constructor(
    private readonly sagas: SagaStarter,
    private readonly definitions: ShiftReportSagas,
  ) {}

  async approve(em: EntityManager, caller: Principal, id: string) {
    const report = await lockReport(em, id, 'update');
    requireState(reportMachine, 'approve', report.status);
    const { sagaId } = await this.sagas.start(em, this.definitions.approve, {
      organizationId: report.organization_id,
      actorId: caller.userId,
      payload: { shiftReportId: id },
      entityType: REPORT_ENTITY,
      entityId: id,
    });
    await em.nativeUpdate(ShiftReportEntity, { id }, { approveSagaId: sagaId, updatedAt: sql<Date>`now()` });
    return { shiftReportId: id, sagaId, status: 'enqueued' as const };
  }

  async reverse(em: EntityManager, caller: Principal, id: string, reason: string) {
    const report = await lockReport(em, id, 'update');
    requireState(reportMachine, 'reverse', report.status);
    const { sagaId } = await this.sagas.start(em, this.definitions.reverse, {
      organizationId: report.organization_id,
      actorId: caller.userId,
      payload: { shiftReportId: id, reason, originalApproveSagaId: report.approve_saga_id },
      entityType: REPORT_ENTITY,
      entityId: id,
    });
    await em.nativeUpdate(ShiftReportEntity, { id }, { rejectSagaId: sagaId, updatedAt: sql<Date>`now()` });
    return { shiftReportId: id, rejectSagaId: sagaId, originalApproveSagaId: report.approve_saga_id, status: 'enqueued' as const };
  }
}
