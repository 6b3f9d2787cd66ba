import type { EntityManager } from '@mikro-orm/postgresql';
import { publishEvent } from '../core/events.js';
import { requireState, transition } from '../core/state-machine.js';
import type { SagaDefinition, SagaStep, StepContext } from '../sagas/saga.js';
import { OperationsError } from '../operations.errors.js';
import type { EffectContext, ReportFacts, ShiftReportEffect } from './effects/effect.js';
import { ShiftReportEntity } from './shift-report.entity.js';
import { reportMachine } from './shift-reports.js';

/**
 * The two sagas of a shift report (docs/adr/0017), built from the same six effects:
 * `prd.shift-report.approve` applies them in order (each compensated by undoing it) and ends the
 * report `approved`; `prd.shift-report.reject-after-approve` undoes them in the same order (each
 * compensated by applying it again) and ends it `rejected`. A step runs only while the report is
 * in the state its saga starts from, so a stale job (a dead letter retried after the report moved
 * on) refuses at once instead of touching anything.
 */

export interface ShiftReportSagaPayload {
  readonly shiftReportId: string;
  /** The reverse saga's reason, kept as the report's `rejectReason`. */
  readonly reason?: string;
  readonly originalApproveSagaId?: string | null;
}

export const APPROVE_SAGA = 'prd.shift-report.approve';
export const REVERSE_SAGA = 'prd.shift-report.reject-after-approve';

/** The report's facts; with `move`, 409 unless the report is still in a state that transition starts from. */
async function reportFacts(em: EntityManager, id: string, move?: 'approve' | 'reverse'): Promise<ReportFacts> {
  const row = await em.findOne(ShiftReportEntity, id, {
    fields: ['id', 'organizationId', 'productionObjectId', 'shiftDate', 'shiftType', 'status'],
    refresh: true,
  });
  if (!row) throw OperationsError.notFound('Shift report');
  if (move) requireState(reportMachine, move, row.status);
  return {
    id: row.id,
    organizationId: row.organizationId,
    objectId: row.productionObjectId,
    shiftDate: row.shiftDate,
    shiftType: row.shiftType,
  };
}

type Direction = 'apply' | 'undo';

function step(effect: ShiftReportEffect, run: Direction, move: 'approve' | 'reverse'): SagaStep<ShiftReportSagaPayload> {
  const context = async (em: EntityManager, saga: StepContext<ShiftReportSagaPayload>, check: boolean): Promise<EffectContext> => ({
    report: await reportFacts(em, saga.payload.shiftReportId, check ? move : undefined),
    sagaId: saga.sagaId,
    actorId: saga.actorId,
  });
  const other: Direction = run === 'apply' ? 'undo' : 'apply';
  return {
    name: effect.step,
    run: async (em, saga) => effect[run](em, await context(em, saga, true)),
    compensate: async (em, saga) => {
      await effect[other](em, await context(em, saga, false));
    },
  };
}

const event = (em: EntityManager, type: string, context: StepContext<ShiftReportSagaPayload>, extra: Record<string, unknown> = {}) =>
  publishEvent(em, {
    type,
    organizationId: context.organizationId,
    payload: { shiftReportId: context.payload.shiftReportId, sagaId: context.sagaId, actorId: context.actorId, ...extra },
  });

export interface ShiftReportSagas {
  readonly approve: SagaDefinition<ShiftReportSagaPayload>;
  readonly reverse: SagaDefinition<ShiftReportSagaPayload>;
}

export function shiftReportSagas(effects: readonly ShiftReportEffect[]): ShiftReportSagas {
  return {
    approve: {
      type: APPROVE_SAGA,
      steps: effects.map((effect) => step(effect, 'apply', 'approve')),
      async onCompleted(em, context) {
        await transition(em, reportMachine, 'approve', context.payload.shiftReportId, {
          set: { approved_by: context.actorId },
          setSql: { approved_at: 'now()' },
        });
        await event(em, 'prd.shift-report.approved', context);
      },
      async onCompensated(em, context, cause) {
        await event(em, 'prd.shift-report.approval-compensated', context, { cause });
      },
    },
    reverse: {
      type: REVERSE_SAGA,
      steps: effects.map((effect) => step(effect, 'undo', 'reverse')),
      async onCompleted(em, context) {
        await transition(em, reportMachine, 'reverse', context.payload.shiftReportId, {
          set: { rejected_by: context.actorId, reject_reason: context.payload.reason ?? null },
          setSql: { rejected_at: 'now()' },
        });
        await event(em, 'prd.shift-report.reversed', context, {
          reason: context.payload.reason ?? null,
          originalApproveSagaId: context.payload.originalApproveSagaId ?? null,
        });
      },
      async onCompensated(em, context, cause) {
        await event(em, 'prd.shift-report.reversal-compensated', context, { cause });
      },
    },
  };
}
