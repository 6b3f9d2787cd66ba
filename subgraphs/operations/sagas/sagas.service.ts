import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { OPERATIONS_FEED, SAGA_QUEUES, type DeadLetter, type SagaStatus } from '../../../contracts/operations/sagas.contract.js';
import { readTopic } from '../../shared/events/topic-feed.js';
import type { QueueHub, QueueSpec } from '../../shared/queues/queue-hub.js';
import type { Principal } from '../core/principal.js';
import { iso } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';
import { afterCommit } from '../core/after-commit.js';
import { SAGA_COMPENSATIONS, SAGA_STEPS, sagaTopic, type SagaEngine, type SagaJob, type SagaRow, type StepRow } from './engine.js';

type Queue = (typeof SAGA_QUEUES)[number];
const SPECS: Readonly<Record<Queue, QueueSpec>> = { 'core-saga-steps': SAGA_STEPS, 'core-saga-compensate': SAGA_COMPENSATIONS };

interface DeadLetterRow {
  queue: Queue;
  job_id: string;
  saga_id: string;
  step: string;
  attempts_made: number;
  error: string;
  failed_at: Date;
}

/**
 * Reading sagas (inside the caller's organization: row-level security and the tenant
 * setting) and handling their dead letters: the saga jobs that failed for good, kept per
 * organization in `dead_letter` (written by the engine when a job gives up), so an
 * organization reads its own from an index whatever other tenants' queues hold.
 */
export class SagasService {
  constructor(
    private readonly queues: QueueHub,
    private readonly engine: SagaEngine,
  ) {}

  private async saga(em: EntityManager, sagaId: string): Promise<SagaRow> {
    const [saga] = await em.execute<SagaRow[]>(`select * from "operations"."saga" where "id" = ?`, [sagaId]);
    if (!saga) throw OperationsError.sagaNotFound();
    return saga;
  }

  async status(em: EntityManager, sagaId: string): Promise<z.output<typeof SagaStatus>> {
    const saga = await this.saga(em, sagaId);
    const steps = await em.execute<StepRow[]>(`select * from "operations"."saga_step" where "saga_id" = ? order by "position"`, [sagaId]);
    return {
      sagaId: saga.id,
      type: saga.type,
      status: saga.status,
      entityType: saga.entity_type,
      entityId: saga.entity_id,
      error: saga.error,
      createdAt: iso(saga.created_at) as string,
      finishedAt: saga.finished_at ? (iso(saga.finished_at) as string) : null,
      steps: steps.map((step) => ({
        name: step.name,
        status: step.status,
        attempts: step.attempts,
        startedAt: step.started_at ? (iso(step.started_at) as string) : null,
        finishedAt: step.finished_at ? (iso(step.finished_at) as string) : null,
        error: step.error,
      })),
    };
  }

  async events(em: EntityManager, sagaId: string, after: number, limit: number) {
    await this.saga(em, sagaId);
    const events = await readTopic(em, OPERATIONS_FEED, sagaTopic(sagaId), after, limit);
    return events.map((event) => ({ ...(event.payload as Record<string, unknown>), sequence: event.sequence })) as never;
  }

  async watch(em: EntityManager, sagaId: string): Promise<{ topic: string }> {
    await this.saga(em, sagaId);
    return { topic: sagaTopic(sagaId) };
  }

  private mine(principal: Principal, data: unknown): data is SagaJob {
    return (data as SagaJob | undefined)?.organizationId === principal.organizationId;
  }

  /** Newest first, `limit` per queue (one more is read to tell whether the queue has more). */
  async deadLetters(em: EntityManager, limit: number) {
    const entries: Array<z.output<typeof DeadLetter>> = [];
    let truncated = false;
    for (const queue of SAGA_QUEUES) {
      const rows = await em.execute<DeadLetterRow[]>(
        `select * from "operations"."dead_letter" where "queue" = ? order by "failed_at" desc, "id" desc limit ?`,
        [queue, limit + 1],
      );
      truncated ||= rows.length > limit;
      for (const row of rows.slice(0, limit)) {
        entries.push({
          queue,
          jobId: row.job_id,
          sagaId: row.saga_id,
          step: row.step,
          attemptsMade: row.attempts_made,
          failedReason: row.error,
          failedAt: iso(row.failed_at) as string,
        });
      }
    }
    return { entries, truncated };
  }

  async queueCounts() {
    return {
      queues: await Promise.all(SAGA_QUEUES.map(async (name) => ({ name, ...(await this.queues.counts(SPECS[name])) }))),
    };
  }

  /**
   * A dead letter of the caller's organization, taken out of the list in the request's
   * transaction, or 404 (another organization's is as missing as an unknown one). A failed job
   * from before dead letters were kept per organization is found in its queue.
   */
  private async takeDeadLetter(em: EntityManager, principal: Principal, queue: Queue, jobId: string): Promise<SagaJob> {
    const [row] = await em.execute<DeadLetterRow[]>(
      `delete from "operations"."dead_letter" where "queue" = ? and "job_id" = ? returning *`,
      [queue, jobId],
    );
    if (row) return { sagaId: row.saga_id, organizationId: principal.organizationId!, step: row.step };
    const job = await this.queues.failedJob(SPECS[queue], jobId);
    if (!job || !this.mine(principal, job.data)) throw OperationsError.deadLetterNotFound();
    return job.data;
  }

  /**
   * Opens the job's saga again in the request's transaction, then moves the job back to waiting
   * once that commits (should the move be lost, the engine's recovery queues the saga's next job).
   */
  async retry(em: EntityManager, principal: Principal, queue: Queue, jobId: string) {
    const job = await this.takeDeadLetter(em, principal, queue, jobId);
    await this.engine.reopen(em, SPECS[queue], job);
    // The failed job moves back to waiting; one the queue no longer keeps is queued again.
    afterCommit(em, () => this.queues.ensure(SPECS[queue], jobId, job));
    return { queue, jobId, status: 'waiting' as const };
  }

  /** Out of the list in the request's transaction; the queue's failed job goes once that commits. */
  async remove(em: EntityManager, principal: Principal, queue: Queue, jobId: string) {
    await this.takeDeadLetter(em, principal, queue, jobId);
    afterCommit(em, async () => {
      await this.queues.removeFailed(SPECS[queue], jobId);
    });
    return { queue, jobId, deleted: true as const };
  }
}
