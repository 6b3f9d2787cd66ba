import type { OperationContract } from '../../contracts/operation.js';
import type { Around, OperationCall } from './contracts/implementation.js';
import { withAfterCommit } from './after-commit.js';
import { idempotent, type IdempotencyStore } from './idempotency.js';

export interface WriteTransactions {
  /** Where the service keeps `Idempotency-Key`s; without it, no contract of the service may declare `idempotency`. */
  readonly keys?: IdempotencyStore;
  /** The caller's two scope values for its keys (e.g. workspace and key mode). */
  readonly scope?: (call: OperationCall) => readonly [string, string];
  /** Mutations that run as they are, each named with why in the service's `around`: they commit by themselves. */
  readonly outside?: readonly OperationContract[];
}

/**
 * The `around` of a service whose reads need no transaction (research, the library): every
 * mutation runs in one transaction of `withAfterCommit` (docs/adr/0045) — the service writes
 * on `ctx.em`, which is that transaction, and queues jobs about its rows with `afterCommit`, so
 * a mutation that fails leaves nothing written and queues nothing. A contract that declares
 * `idempotency` claims its key in the same transaction (docs/adr/0008). Queries and streams
 * run as they are.
 */
export function writesInTransaction(options: WriteTransactions): Around {
  const outside = new Set((options.outside ?? []).map((contract) => contract.name));
  return (contract, call, next, input) => {
    if (contract.kind !== 'mutation' || outside.has(contract.name)) return next(call);
    const { keys, scope } = options;
    if (contract.idempotency && !(keys && scope))
      throw new Error(`operation ${contract.name} declares idempotency; its service keeps no keys`);
    return withAfterCommit(call.ctx.em, call.ctx.logger, (tx) => {
      const scoped: OperationCall = { ...call, ctx: { ...call.ctx, em: tx } };
      if (!contract.idempotency) return next(scoped);
      return idempotent(tx, keys!, scope!(scoped), contract, scoped, input, () => next(scoped));
    });
  };
}
