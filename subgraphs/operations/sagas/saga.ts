import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The shape of a saga (seed 002, "Saga tracking"): a named sequence of steps, each with its
 * compensation, run one step per queue job (`core-saga-steps`, job id `<sagaId>__<stepName>`)
 * and undone in reverse order on `core-saga-compensate` when a step keeps failing.
 *
 * The engine runs `run` and `compensate` inside one transaction as the application role with
 * the saga's organization set (row-level security applies, as for a request), and records the
 * step's new status in the same transaction: a step's effect is applied exactly once even when
 * its job is retried after a crash. A step throws to fail (it is retried with backoff); it never
 * commits on its own.
 */

export interface StepContext<P> {
  readonly sagaId: string;
  readonly organizationId: string;
  /** Who started the saga (the approver), for audit and records. */
  readonly actorId: string | null;
  readonly payload: P;
  /** 1 on the first try of this step. */
  readonly attempt: number;
  /** In `compensate`: what this step's `run` returned (kept with the step), e.g. the state it replaced. */
  readonly output?: unknown;
}

export interface SagaStep<P> {
  /** Unique within the saga, kebab-case (e.g. `fuel`, `materials`); part of the job id. */
  readonly name: string;
  /** Applies the step's effect; what it returns (JSON) is kept with the step and handed to `compensate`. */
  readonly run: (em: EntityManager, context: StepContext<P>) => Promise<unknown>;
  /** Undoes the effect of a completed `run` (called only for steps that completed). */
  readonly compensate: (em: EntityManager, context: StepContext<P>) => Promise<void>;
}

export interface SagaDefinition<P> {
  /** The saga's type, e.g. `prd.shift-report.approve`, `prd.shift-report.reject-after-approve`, `eam.asset-decommission`. */
  readonly type: string;
  readonly steps: readonly SagaStep<P>[];
  /** In the transaction of the last step: e.g. the report becomes `approved`. */
  readonly onCompleted?: (em: EntityManager, context: StepContext<P>) => Promise<void>;
  /** In the transaction of the last compensation: e.g. the report stays `submitted`; `cause` is the failed step's error. */
  readonly onCompensated?: (em: EntityManager, context: StepContext<P>, cause: string) => Promise<void>;
}

export interface StartSaga<P> {
  readonly organizationId: string;
  readonly actorId: string | null;
  readonly payload: P;
  /** The record the saga works on (shown in the saga's status and used to refuse a second concurrent saga on it). */
  readonly entityType: string;
  readonly entityId: string;
}

/** What a module uses to start a saga: inside the caller's transaction; the first job is queued once it commits. */
export interface SagaStarter {
  start<P>(em: EntityManager, definition: SagaDefinition<P>, saga: StartSaga<P>): Promise<{ sagaId: string }>;
}
