import type { EntityManager, IsolationLevel } from '@mikro-orm/postgresql';
import type { Logger } from '../../runtime/logger.js';

/**
 * The one way to open a transaction (docs/adr/0045): every service's `around` runs its
 * mutations in `withAfterCommit`, and work outside a call (queue consumers, saga steps,
 * start-up jobs) opens its transaction with it on a fork of the root entity manager.
 *
 * Work that must follow a transaction's commit (queueing a job about rows it wrote) is
 * registered with `afterCommit` on the transaction's entity manager. Nothing of it runs when
 * the transaction rolls back. A failure of the work is logged, not thrown — the caller's
 * change is committed; whoever queues this way also recovers lost work.
 */

const pending = new WeakMap<EntityManager, Array<() => Promise<unknown>>>();

/** How a transaction reads: e.g. one consistent snapshot for a read of many rows. */
export interface TransactionMode {
  readonly isolationLevel?: IsolationLevel;
  readonly readOnly?: boolean;
}

/** Registers `work` to run after `tx` commits; `tx` must be a transaction `withAfterCommit` opened (else it throws). */
export function afterCommit(tx: EntityManager, work: () => Promise<unknown>): void {
  const list = pending.get(tx);
  if (!list) throw new Error('afterCommit: this entity manager is not a transaction that runs work after its commit');
  list.push(work);
}

/**
 * Runs `work` in a transaction of `em`, then what it registered with `afterCommit`, in order.
 * Called with such a transaction, it joins it: its work runs in a savepoint (a failure undoes
 * only its own writes, and is thrown), and what it registered runs after the outer commit —
 * never before, never when the outer transaction rolls back.
 */
export async function withAfterCommit<T>(
  em: EntityManager,
  logger: Logger,
  work: (tx: EntityManager) => Promise<T>,
  mode: TransactionMode = {},
): Promise<T> {
  const outer = pending.get(em);
  const list: Array<() => Promise<unknown>> = [];
  const result = await em.transactional(async (tx) => {
    pending.set(tx as EntityManager, list);
    return work(tx as EntityManager);
  }, mode);
  if (outer) {
    outer.push(...list);
    return result;
  }
  for (const run of list) {
    await run().catch((error: unknown) => logger.warn({ err: error }, 'work after commit failed'));
  }
  return result;
}
