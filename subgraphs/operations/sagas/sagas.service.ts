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
/** Failed jobs kept per queue (the queue keeps at most this many). */
const KEPT = 5000;

/**
 * Reading sagas (inside the caller's organization: row-level security and the tenant
 * setting) and handling their dead letters: the failed jobs of the two saga queues,
 * filtered by the organization the job belongs to.
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

  async deadLetters(principal: Principal, limit: number) {
    const entries: Array<z.output<typeof DeadLetter>> = [];
    let truncated = false;
    for (const queue of SAGA_QUEUES) {
      const { jobs } = await this.queues.failed(SPECS[queue], KEPT);
      const ours = jobs.filter((job) => this.mine(principal, job.data));
      truncated ||= ours.length > limit;
      for (const job of ours.slice(0, limit)) {
        const data = job.data as SagaJob;
        entries.push({
          queue,
          jobId: job.id,
          sagaId: data.sagaId,
          step: data.step,
          attemptsMade: job.attemptsMade,
          failedReason: job.failedReason,
          failedAt: job.failedAt?.toISOString() ?? null,
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

  /** A failed job of the caller's organization, or 404 (another organization's is as missing as an unknown one). */
  private async failedOfMine(principal: Principal, queue: Queue, jobId: string): Promise<SagaJob> {
    const job = await this.queues.failedJob(SPECS[queue], jobId);
    if (!job || !this.mine(principal, job.data)) throw OperationsError.deadLetterNotFound();
    return job.data;
  }

  /**
   * Opens the job's saga again in the request's transaction, then moves the job back to waiting
   * once that commits (should the move be lost, the engine's recovery queues the saga's next job).
   */
  async retry(em: EntityManager, principal: Principal, queue: Queue, jobId: string) {
    const job = await this.failedOfMine(principal, queue, jobId);
    await this.engine.reopen(em, SPECS[queue], job);
    afterCommit(em, async () => {
      if (!(await this.queues.retryFailed(SPECS[queue], jobId))) throw new Error(`dead letter ${queue}/${jobId} was gone when retried`);
    });
    return { queue, jobId, status: 'waiting' as const };
  }

  async remove(principal: Principal, queue: Queue, jobId: string) {
    await this.failedOfMine(principal, queue, jobId);
    if (!(await this.queues.removeFailed(SPECS[queue], jobId))) throw OperationsError.deadLetterNotFound();
    return { queue, jobId, deleted: true as const };
  }
}
