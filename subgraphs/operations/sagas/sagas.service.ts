import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { OPERATIONS_FEED, SAGA_QUEUES, type DeadLetter, type SagaStatus } from '../../../contracts/operations/sagas.contract.js';
import { readTopic } from '../../shared/events/topic-feed.js';
import type { QueueHub, QueueSpec } from '../../shared/queues/queue-hub.js';
import type { Principal } from '../core/principal.js';
import { OperationsError } from '../operations.errors.js';
import { afterCommit } from '../core/after-commit.js';
import { SAGA_COMPENSATIONS, SAGA_STEPS, sagaTopic, type SagaEngine, type SagaJob } from './engine.js';
import { DeadLetterEntity } from './dead-letter.entity.js';
import { SagaEntity, SagaStepEntity, type Saga } from './saga.entity.js';

type Queue = (typeof SAGA_QUEUES)[number];
const SPECS: Readonly<Record<Queue, QueueSpec>> = { 'core-saga-steps': SAGA_STEPS, 'core-saga-compensate': SAGA_COMPENSATIONS };

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

  private async saga(em: EntityManager, sagaId: string): Promise<Saga> {
    const saga = await em.findOne(SagaEntity, { id: sagaId });
    if (!saga) throw OperationsError.sagaNotFound();
    return saga;
  }

  async status(em: EntityManager, sagaId: string): Promise<z.output<typeof SagaStatus>> {
    const saga = await this.saga(em, sagaId);
    const steps = await em.find(SagaStepEntity, { sagaId }, { orderBy: { position: 'asc' } });
    return {
      sagaId: saga.id,
      type: saga.type,
      status: saga.status,
      entityType: saga.entityType,
      entityId: saga.entityId,
      error: saga.error ?? null,
      createdAt: saga.createdAt.toISOString(),
      finishedAt: saga.finishedAt?.toISOString() ?? null,
      steps: steps.map((step) => ({
        name: step.name,
        status: step.status,
        attempts: step.attempts,
        startedAt: step.startedAt?.toISOString() ?? null,
        finishedAt: step.finishedAt?.toISOString() ?? null,
        error: step.error ?? null,
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
      const letters = await em.find(DeadLetterEntity, { queue }, { orderBy: { failedAt: 'desc', id: 'desc' }, limit: limit + 1 });
      truncated ||= letters.length > limit;
      for (const letter of letters.slice(0, limit)) {
        entries.push({
          queue,
          jobId: letter.jobId,
          sagaId: letter.sagaId,
          step: letter.step,
          attemptsMade: letter.attemptsMade,
          failedReason: letter.error,
          failedAt: letter.failedAt.toISOString(),
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
    const letter = await em.findOne(DeadLetterEntity, { queue, jobId });
    // Taken only by the call whose delete removed it: a concurrent one falls through to the queue.
    if (letter && (await em.nativeDelete(DeadLetterEntity, { id: letter.id })) > 0) {
      return { sagaId: letter.sagaId, organizationId: principal.organizationId!, step: letter.step };
    }
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
