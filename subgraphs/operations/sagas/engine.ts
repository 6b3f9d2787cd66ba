import type { EntityManager } from '@mikro-orm/postgresql';
import { UnrecoverableError } from 'bullmq';
import { DomainError } from '../../../contracts/errors.js';
import { OPERATIONS_FEED } from '../../../contracts/operations/sagas.contract.js';
import type { Logger } from '../../../runtime/logger.js';
import { publishToTopic, WAKE_AFTER_COMMIT, wakeTopic } from '../../shared/events/topic-feed.js';
import type { JobFacts, QueueHub, QueueSpec } from '../../shared/queues/queue-hub.js';
import { afterCommit, withAfterCommit } from '../core/after-commit.js';
import { enterTenant } from '../core/tenancy.js';
import { OperationsError } from '../operations.errors.js';
import type { SagaDefinition, SagaStarter, SagaStep, StartSaga, StepContext } from './saga.js';
import { SagaEntity, SagaStepEntity } from './saga.entity.js';

/**
 * The saga engine (docs/adr/0019-sagas.md). A saga and its steps are rows; each step runs as a job
 * of `core-saga-steps` (id `<sagaId>__<stepName>`), its compensation as a job of
 * `core-saga-compensate`. A job runs in ONE transaction as the application role inside the
 * saga's organization: it locks the saga row, skips a step already done, applies the step,
 * records the step's status and output and appends the progress event — all of which commit
 * together or not at all, so a job retried after a crash (a killed worker, a lost lock) never
 * applies an effect twice. The next job is queued after the commit; work lost between a
 * commit and its queueing is queued again by the consumers' recovery.
 */

export const SAGA_STEPS: QueueSpec = { name: 'core-saga-steps', attempts: 5, backoffMs: 500, lockMs: 10_000, maxStalled: 50 };
export const SAGA_COMPENSATIONS: QueueSpec = {
  name: 'core-saga-compensate',
  attempts: 8,
  backoffMs: 500,
  lockMs: 10_000,
  maxStalled: 50,
};

export interface SagaJob {
  readonly sagaId: string;
  readonly organizationId: string;
  readonly step: string;
}

export interface SagaRow {
  id: string;
  organization_id: string;
  type: string;
  entity_type: string;
  entity_id: string;
  actor_id: string | null;
  payload: unknown;
  status: 'running' | 'compensating' | 'completed' | 'compensated' | 'failed';
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface StepRow {
  saga_id: string;
  position: number;
  name: string;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'compensating' | 'compensated';
  attempts: number;
  compensation_attempts: number;
  output: unknown;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}

export const jobId = (sagaId: string, step: string) => `${sagaId}__${step}`;
export const sagaTopic = (sagaId: string) => `saga:${sagaId}`;
const STEP_NAME = /^[a-z0-9-]{1,64}$/;
/** How long a running saga may sit without a change before recovery queues its next job again. */
const QUIET_SECONDS = 20;

/**
 * A job of a saga no longer in that job's phase was delivered again: BullMQ takes up a job whose
 * process died before the job's end was recorded, so a job runs at least once, not exactly once.
 * It has nothing to do, and it never opens an ended saga — only a retry from the dead letters does
 * (`SagaEngine.reopen`). The job that ended the phase (the step that failed, the compensation that
 * gave up) stays a dead letter: it fails again with its step's error; any other ends quietly.
 */
function deliveredAgain(step: StepRow | undefined, endedThePhase: boolean): string | undefined {
  return step && endedThePhase ? (step.error ?? `${step.name} failed`) : undefined;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

export class SagaEngine implements SagaStarter {
  private readonly definitions = new Map<string, SagaDefinition<unknown>>();

  constructor(
    private readonly root: EntityManager,
    private readonly queues: QueueHub,
    private readonly logger: Logger,
  ) {
    queues.consume<SagaJob>(SAGA_STEPS, {
      concurrency: 4,
      process: (job, facts) => this.runStep(job, facts),
      exhausted: async (job, error, facts) => {
        await this.stepGaveUp(job, error);
        await this.deadLetter(SAGA_STEPS, job, error, facts);
      },
      recover: () => this.unqueued('running'),
      rerunFinished: true,
    });
    queues.consume<SagaJob>(SAGA_COMPENSATIONS, {
      concurrency: 4,
      process: (job, facts) => this.runCompensation(job, facts),
      exhausted: async (job, error, facts) => {
        await this.compensationGaveUp(job, error);
        await this.deadLetter(SAGA_COMPENSATIONS, job, error, facts);
      },
      recover: () => this.unqueued('compensating'),
      rerunFinished: true,
    });
  }

  /** Makes sagas of these types runnable; done once, when the module builds its services. */
  register(...definitions: ReadonlyArray<SagaDefinition<never>>): void {
    for (const definition of definitions) {
      if (this.definitions.has(definition.type)) throw new Error(`saga ${definition.type} is registered twice`);
      const names = definition.steps.map((step) => step.name);
      if (names.length === 0 || new Set(names).size !== names.length || !names.every((name) => STEP_NAME.test(name))) {
        throw new Error(`saga ${definition.type}: steps need unique kebab-case names`);
      }
      this.definitions.set(definition.type, definition as SagaDefinition<unknown>);
    }
  }

  async start<P>(em: EntityManager, definition: SagaDefinition<P>, saga: StartSaga<P>): Promise<{ sagaId: string }> {
    if (this.definitions.get(definition.type) !== (definition as SagaDefinition<unknown>)) {
      throw new Error(`saga ${definition.type} is not registered`);
    }
    const running = await em.count(SagaEntity, {
      organizationId: saga.organizationId,
      entityType: saga.entityType,
      entityId: saga.entityId,
      status: { $in: ['running', 'compensating'] },
    });
    if (running > 0) throw OperationsError.sagaAlreadyRunning(saga.entityType);
    const created = em.create(SagaEntity, {
      organizationId: saga.organizationId,
      type: definition.type,
      entityType: saga.entityType,
      entityId: saga.entityId,
      actorId: saga.actorId,
      payload: saga.payload as Record<string, unknown>,
    });
    await em.flush();
    const sagaId = created.id;
    definition.steps.forEach((step, position) =>
      em.create(SagaStepEntity, { sagaId, organizationId: saga.organizationId, position, name: step.name }),
    );
    await em.flush();
    await this.progress(em, sagaId, null, 'running', 0, null);
    const first: SagaJob = { sagaId, organizationId: saga.organizationId, step: definition.steps[0]!.name };
    afterCommit(em, () => this.queues.add(SAGA_STEPS, jobId(sagaId, first.step), first));
    return { sagaId };
  }

  /**
   * One saga job's transaction: the saga's organization, the saga row locked. Its progress events
   * wake their readers once it has committed (`WAKE_AFTER_COMMIT`), not from inside the commit:
   * a commit that sent a `NOTIFY` holds a database-wide lock through its WAL flush, which made
   * every step of every worker commit single file (docs/adr/0048). The wake runs before the job
   * is reported done, so a job whose process died before it is delivered again and wakes then.
   */
  private transaction<T>(job: SagaJob, work: (tx: EntityManager, saga: SagaRow) => Promise<T | undefined>): Promise<T | undefined> {
    return withAfterCommit(this.root.fork(), this.logger, async (tx) => {
      const principal = { organizationId: job.organizationId, userId: '', roles: [], objects: '*', superAdmin: false } as const;
      await enterTenant(tx, { ...principal, tokenId: '', tokenExpiresAt: new Date(0) }, `saga:${job.step}`, job.sagaId);
      // raw SQL: the saga row locked (for update) for the whole step, with SET LOCAL of the audited actor and of the wake after commit
      const [saga] = await tx.execute<SagaRow[]>(
        `select s.*, set_config('app.actor_id', coalesce(s."actor_id"::text, ''), true) as "actor_setting",
           set_config('${WAKE_AFTER_COMMIT}', 'on', true) as "wake_setting"
         from "operations"."saga" s where s."id" = ? for update`,
        [job.sagaId],
      );
      if (!saga) return undefined;
      afterCommit(tx, () => wakeTopic(this.root.fork(), OPERATIONS_FEED, sagaTopic(job.sagaId)));
      return work(tx, saga);
    });
  }

  private definition(saga: SagaRow): SagaDefinition<unknown> {
    const definition = this.definitions.get(saga.type);
    if (!definition) throw new UnrecoverableError(`saga type ${saga.type} is not registered in this process`);
    return definition;
  }

  private context(saga: SagaRow, attempt: number, output?: unknown): StepContext<unknown> {
    return { sagaId: saga.id, organizationId: saga.organization_id, actorId: saga.actor_id, payload: saga.payload, attempt, output };
  }

  private steps(tx: EntityManager, sagaId: string): Promise<StepRow[]> {
    // raw SQL: the steps in the row shape the engine passes on (fresh after its own raw updates)
    return tx.execute<StepRow[]>(`select * from "operations"."saga_step" where "saga_id" = ? order by "position"`, [sagaId]);
  }

  private async runStep(job: SagaJob, facts: JobFacts): Promise<void> {
    let deadLetter: string | undefined;
    try {
      deadLetter = await this.transaction(job, async (tx, saga) => {
        const definition = this.definition(saga);
        const steps = await this.steps(tx, saga.id);
        const target = steps.find((step) => step.name === job.step);
        if (!target) return undefined;
        if (saga.status !== 'running') return deliveredAgain(target, target.status === 'failed');
        for (const step of steps) {
          if (step.position > target.position) break;
          if (step.status === 'completed') continue;
          await this.apply(tx, saga, definition.steps[step.position]!, step, step === target ? facts.attempt : 1);
        }
        const next = steps.find((step) => step.position === target.position + 1);
        if (next) {
          const nextJob: SagaJob = { ...job, step: next.name };
          afterCommit(tx, () => this.queues.ensure(SAGA_STEPS, jobId(saga.id, next.name), nextJob));
          return undefined;
        }
        // raw SQL: finish time by clock_timestamp(), under the saga lock
        await tx.execute(
          `update "operations"."saga" set "status" = 'completed', "finished_at" = clock_timestamp(), "updated_at" = now() where "id" = ?`,
          [saga.id],
        );
        await definition.onCompleted?.(tx, this.context(saga, facts.attempt));
        await this.progress(tx, saga.id, null, 'completed', 0, null);
        return undefined;
      });
    } catch (error) {
      await this.noteFailure(job, 'attempts', facts.attempt, error);
      // A business rule refused the step: trying again cannot help.
      if (error instanceof DomainError) throw new UnrecoverableError(`${error.code}: ${error.message}`);
      throw error;
    }
    if (deadLetter !== undefined) throw new UnrecoverableError(deadLetter);
  }

  /** Runs one step and records it, in the job's transaction. */
  private async apply(tx: EntityManager, saga: SagaRow, step: SagaStep<unknown>, row: StepRow, attempt: number): Promise<void> {
    const output = await step.run(tx, this.context(saga, attempt));
    // raw SQL: step completion keeps the highest attempt (greatest) and first start (coalesce) in one update
    await tx.execute(
      `update "operations"."saga_step" set "status" = 'completed', "attempts" = greatest("attempts", ?), "output" = ?::jsonb,
         "error" = null, "started_at" = coalesce("started_at", now()), "finished_at" = clock_timestamp()
       where "saga_id" = ? and "name" = ?`,
      [attempt, output === undefined ? null : JSON.stringify(output), saga.id, row.name],
    );
    await this.progress(tx, saga.id, row.name, 'completed', Math.max(row.attempts, attempt), null);
  }

  /**
   * A dead letter about to be retried, in the retrying request's transaction: its saga is opened
   * again so the job finds work — a compensated saga runs again from its first step (its
   * compensation undid the others), a `failed` one carries on compensating. Only this opens an
   * ended saga: the same job delivered again by the queue finds the saga ended and does nothing.
   */
  async reopen(em: EntityManager, queue: QueueSpec, job: SagaJob): Promise<void> {
    // raw SQL: the saga row locked (for update) while a job is reopened
    const [saga] = await em.execute<SagaRow[]>(`select * from "operations"."saga" where "id" = ? for update`, [job.sagaId]);
    if (!saga) return;
    if (queue.name === SAGA_STEPS.name && saga.status === 'compensated') {
      // raw SQL: the step, fresh after the engine's own raw updates
      const [step] = await em.execute<StepRow[]>(`select * from "operations"."saga_step" where "saga_id" = ? and "name" = ?`, [
        saga.id,
        job.step,
      ]);
      if (step?.status === 'failed') await this.resume(em, saga);
    } else if (queue.name === SAGA_COMPENSATIONS.name && saga.status === 'failed') {
      // raw SQL: state change under the saga lock
      await em.execute(`update "operations"."saga" set "status" = 'compensating', "updated_at" = now() where "id" = ?`, [saga.id]);
      await this.progress(em, saga.id, null, 'compensating', 0, saga.error);
    }
  }

  /** A compensated saga made runnable again: its steps pending, its compensation jobs free to run again. */
  private async resume(tx: EntityManager, saga: SagaRow): Promise<void> {
    // raw SQL: state change under the saga lock
    await tx.execute(
      `update "operations"."saga" set "status" = 'running', "error" = null, "finished_at" = null, "updated_at" = now() where "id" = ?`,
      [saga.id],
    );
    // raw SQL: bulk reset of the saga's steps
    await tx.execute(
      `update "operations"."saga_step" set "status" = 'pending', "output" = null, "error" = null, "started_at" = null, "finished_at" = null
       where "saga_id" = ?`,
      [saga.id],
    );
    await this.progress(tx, saga.id, null, 'running', 0, null);
  }

  /** The last try of a step failed: compensate what was done, newest first. */
  private async stepGaveUp(job: SagaJob, error: unknown): Promise<void> {
    await this.transaction(job, async (tx, saga) => {
      if (saga.status !== 'running') return;
      const cause = `${job.step}: ${message(error)}`;
      // raw SQL: failure time by clock_timestamp(), under the saga lock
      await tx.execute(
        `update "operations"."saga_step" set "status" = 'failed', "error" = ?, "finished_at" = clock_timestamp() where "saga_id" = ? and "name" = ?`,
        [message(error), saga.id, job.step],
      );
      // raw SQL: state change under the saga lock
      await tx.execute(`update "operations"."saga" set "status" = 'compensating', "error" = ?, "updated_at" = now() where "id" = ?`, [
        cause,
        saga.id,
      ]);
      // raw SQL: the step, fresh after the engine's own raw updates
      const [step] = await tx.execute<StepRow[]>(`select * from "operations"."saga_step" where "saga_id" = ? and "name" = ?`, [
        saga.id,
        job.step,
      ]);
      await this.progress(tx, saga.id, job.step, 'failed', step?.attempts ?? 0, message(error));
      await this.progress(tx, saga.id, null, 'compensating', 0, cause);
      await this.compensateNext(tx, { ...saga, status: 'compensating', error: cause }, job);
    });
  }

  /** Queues the compensation of the newest completed step, or ends the compensation when none is left. */
  private async compensateNext(tx: EntityManager, saga: SagaRow, job: SagaJob): Promise<void> {
    // raw SQL: the last completed step, fresh after the engine's own raw updates
    const [last] = await tx.execute<StepRow[]>(
      `select * from "operations"."saga_step" where "saga_id" = ? and "status" = 'completed' order by "position" desc limit 1`,
      [saga.id],
    );
    if (last) {
      const next: SagaJob = { ...job, step: last.name };
      afterCommit(tx, () => this.queues.ensure(SAGA_COMPENSATIONS, jobId(saga.id, last.name), next));
      return;
    }
    // raw SQL: finish time by clock_timestamp(), under the saga lock
    await tx.execute(
      `update "operations"."saga" set "status" = 'compensated', "finished_at" = clock_timestamp(), "updated_at" = now() where "id" = ?`,
      [saga.id],
    );
    await this.definition(saga).onCompensated?.(tx, this.context(saga, 1), saga.error ?? 'compensated');
    await this.progress(tx, saga.id, null, 'compensated', 0, saga.error);
  }

  private async runCompensation(job: SagaJob, facts: JobFacts): Promise<void> {
    let deadLetter: string | undefined;
    try {
      deadLetter = await this.transaction(job, async (tx, saga) => {
        // raw SQL: the step, fresh after the engine's own raw updates
        const [row] = await tx.execute<StepRow[]>(`select * from "operations"."saga_step" where "saga_id" = ? and "name" = ?`, [
          saga.id,
          job.step,
        ]);
        if (saga.status !== 'compensating') return deliveredAgain(row, saga.status === 'failed' && row?.status === 'completed');
        const definition = this.definition(saga);
        if (row?.status === 'completed') {
          const step = definition.steps[row.position]!;
          await step.compensate(tx, this.context(saga, facts.attempt, row.output ?? undefined));
          // raw SQL: compensation keeps the highest attempt (greatest), in one update
          await tx.execute(
            `update "operations"."saga_step" set "status" = 'compensated', "compensation_attempts" = greatest("compensation_attempts", ?),
               "finished_at" = clock_timestamp() where "saga_id" = ? and "name" = ?`,
            [facts.attempt, saga.id, row.name],
          );
          await this.progress(tx, saga.id, row.name, 'compensated', row.attempts, null);
        }
        await this.compensateNext(tx, saga, job);
        return undefined;
      });
    } catch (error) {
      await this.noteFailure(job, 'compensation_attempts', facts.attempt, error);
      throw error;
    }
    if (deadLetter !== undefined) throw new UnrecoverableError(deadLetter);
  }

  /**
   * The job failed for good: it becomes a dead letter of its organization (written again, with
   * the newest failure, when the same job fails once more), until a person retries or deletes it.
   */
  private async deadLetter(queue: QueueSpec, job: SagaJob, error: unknown, facts: JobFacts): Promise<void> {
    await this.transaction(job, async (tx, saga) => {
      // raw SQL: `on conflict do update`: the same job failing again refreshes its dead letter
      await tx.execute(
        `insert into "operations"."dead_letter" ("organization_id", "queue", "job_id", "saga_id", "step", "attempts_made", "error")
         values (?, ?, ?, ?, ?, ?, ?)
         on conflict ("queue", "job_id") do update set "attempts_made" = excluded."attempts_made", "error" = excluded."error",
           "failed_at" = clock_timestamp()`,
        [saga.organization_id, queue.name, facts.id, saga.id, job.step, facts.attempt, message(error)],
      );
      return undefined;
    });
  }

  /** A compensation that keeps failing leaves the saga `failed`, its job in the dead letters for a person to retry. */
  private async compensationGaveUp(job: SagaJob, error: unknown): Promise<void> {
    await this.transaction(job, async (tx, saga) => {
      if (saga.status !== 'compensating') return;
      const cause = `${saga.error ?? ''}; compensating ${job.step}: ${message(error)}`.replace(/^; /, '');
      // raw SQL: state change under the saga lock
      await tx.execute(`update "operations"."saga" set "status" = 'failed', "error" = ?, "updated_at" = now() where "id" = ?`, [
        cause,
        saga.id,
      ]);
      await this.progress(tx, saga.id, null, 'failed', 0, cause);
    });
  }

  /** A failed try, recorded on its own (the job's transaction rolled back): the attempts and the error. */
  private async noteFailure(job: SagaJob, column: 'attempts' | 'compensation_attempts', attempt: number, error: unknown): Promise<void> {
    await this.transaction(job, async (tx, saga) => {
      // raw SQL: attempt counted with greatest/coalesce/case in one update, returning the step
      const [step] = await tx.execute<StepRow[]>(
        `update "operations"."saga_step" set "${column}" = greatest("${column}", ?), "error" = ?,
           "status" = case when "status" = 'pending' then 'running' else "status" end, "started_at" = coalesce("started_at", now())
         where "saga_id" = ? and "name" = ? returning *`,
        [attempt, message(error), saga.id, job.step],
      );
      if (step) await this.progress(tx, saga.id, step.name, step.status, step.attempts, step.error);
    }).catch((failure: unknown) => this.logger.warn({ err: failure, saga: job.sagaId }, 'could not record a failed saga job'));
  }

  /** One progress event, in the transaction of the change it reports. */
  private async progress(tx: EntityManager, sagaId: string, step: string | null, status: string, attempts: number, error: string | null) {
    // raw SQL: touches the saga under its lock
    await tx.execute(`update "operations"."saga" set "updated_at" = now() where "id" = ?`, [sagaId]);
    await publishToTopic(tx, OPERATIONS_FEED, {
      topic: sagaTopic(sagaId),
      type: 'saga.progress',
      payload: { sagaId, step, status, attempts, error, at: new Date().toISOString() },
    });
  }

  /**
   * Sagas that have been quiet a while, with the job that should run next: queueing it is a
   * no-op when it is there, and brings it back when a crash lost it between commit and queue.
   */
  private async unqueued(status: 'running' | 'compensating'): Promise<Array<{ id: string; data: SagaJob }>> {
    const rows = await withAfterCommit(this.root.fork(), this.logger, async (tx) => {
      // raw SQL: SET LOCAL so recovery reads every organization's sagas
      await tx.execute(`select set_config('app.platform_read', 'on', true)`);
      // raw SQL: recovery scan: distinct on over a join of every organization's sagas
      return tx.execute<Array<{ saga_id: string; organization_id: string; name: string }>>(
        status === 'running'
          ? `select distinct on (s."id") s."id" as "saga_id", s."organization_id", t."name"
             from "operations"."saga" s join "operations"."saga_step" t on t."saga_id" = s."id"
             where s."status" = 'running' and s."updated_at" < now() - make_interval(secs => ?) and t."status" <> 'completed'
             order by s."id", t."position"`
          : `select distinct on (s."id") s."id" as "saga_id", s."organization_id", t."name"
             from "operations"."saga" s join "operations"."saga_step" t on t."saga_id" = s."id"
             where s."status" = 'compensating' and s."updated_at" < now() - make_interval(secs => ?) and t."status" = 'completed'
             order by s."id", t."position" desc`,
        [QUIET_SECONDS],
      );
    });
    return rows.map((row) => ({
      id: jobId(row.saga_id, row.name),
      data: { sagaId: row.saga_id, organizationId: row.organization_id, step: row.name },
    }));
  }
}
