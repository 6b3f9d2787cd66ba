import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One of the six effects of approving a shift report (fuel, materials, machine hours,
 * coefficients, statistics, timesheet). The approval saga's step applies it and its compensation
 * undoes it; the reverse saga's step undoes it and its compensation applies it again. Both are
 * idempotent on the records themselves (an effect already applied, or already undone, is left as
 * it is), besides the engine's once-only step transaction, so a step taken up again — after a
 * crash, or a dead letter retried after its compensation — never applies an effect twice.
 */

/** What the steps know of the report (read in the step's transaction). */
export interface ReportFacts {
  readonly id: string;
  readonly organizationId: string;
  readonly objectId: string;
  /** `YYYY-MM-DD`. */
  readonly shiftDate: string;
  readonly shiftType: 'day' | 'night';
}

export interface EffectContext {
  readonly report: ReportFacts;
  readonly sagaId: string;
  /** Who started the saga. */
  readonly actorId: string | null;
}

export interface ShiftReportEffect {
  /** The step's name in both sagas, e.g. `fuel`. */
  readonly step: string;
  /** Applies what is not applied yet; returns what it did (kept with the step). */
  apply(em: EntityManager, context: EffectContext): Promise<unknown>;
  /** Undoes what is applied; returns what it did. */
  undo(em: EntityManager, context: EffectContext): Promise<unknown>;
}
