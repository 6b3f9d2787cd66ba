import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../runtime/logger.js';
import { afterCommit } from '../shared/after-commit.js';
import type { QueueHub, QueueSpec } from '../shared/queues/queue-hub.js';

/** The research service's queues: one job per assistant turn (id: the pending message) and per run (id: the run). */

export interface TurnJob {
  readonly messageId: string;
}

export interface RunJob {
  readonly runId: string;
}

export const ASSISTANT_TURNS: QueueSpec = { name: 'research-assistant-turns', attempts: 3, backoffMs: 500 };
export const RESEARCH_RUNS: QueueSpec = { name: 'research-runs', attempts: 2, backoffMs: 1000 };

/**
 * Queues a job once `tx` commits. A lost add is logged (`what`, and the job's data) and the
 * caller's answer stands: the queue's consumer finds the job again by its recovery.
 */
export function queueAfterCommit<T extends object>(
  tx: EntityManager,
  queues: QueueHub,
  logger: Logger,
  job: { readonly spec: QueueSpec; readonly id: string; readonly data: T; readonly what: string },
): void {
  afterCommit(tx, async () => {
    try {
      await queues.add<T>(job.spec, job.id, job.data);
    } catch (error) {
      const fields: Record<string, unknown> = { err: error, ...job.data };
      logger.warn(fields, `${job.what} not queued; recovery will queue it`);
    }
  });
}
