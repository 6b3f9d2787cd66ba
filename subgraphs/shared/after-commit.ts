import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../runtime/logger.js';

/**
 * Work that must follow a transaction's commit (queueing a job about rows it wrote): a
 * transaction that runs such work registers its entity manager here; `afterCommit` adds to
 * it. Nothing runs when the transaction rolls back. A failure of the work is logged, not
 * thrown — the caller's change is committed; whoever queues this way also recovers lost work.
 */

const pending = new WeakMap<EntityManager, Array<() => Promise<unknown>>>();

export function afterCommit(tx: EntityManager, work: () => Promise<unknown>): void {
  const list = pending.get(tx);
  if (!list) throw new Error('afterCommit: this entity manager is not a transaction that runs work after its commit');
  list.push(work);
}

/**
 * Runs `work` after the commit of `em` when `em` is such a transaction (a call wrapped by a
 * service's `around`), else at once: a service that commits its own transaction queues the
 * same way whether or not a caller's transaction encloses it.
 */
export async function whenCommitted(em: EntityManager, work: () => Promise<unknown>): Promise<void> {
  const list = pending.get(em);
  if (list) list.push(work);
  else await work();
}

/** Runs `work` in a transaction of `em`, then what it registered with `afterCommit`, in order. */
export async function withAfterCommit<T>(em: EntityManager, logger: Logger, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  const list: Array<() => Promise<unknown>> = [];
  const result = await em.transactional(async (tx) => {
    pending.set(tx as EntityManager, list);
    return work(tx as EntityManager);
  });
  for (const run of list) {
    await run().catch((error: unknown) => logger.warn({ err: error }, 'work after commit failed'));
  }
  return result;
}
