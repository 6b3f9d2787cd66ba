import type { Around, OperationCall } from './contracts/implementation.js';
import { withAfterCommit } from './after-commit.js';
import { idempotent, type IdempotencyStore } from './idempotency.js';

/**
 * The `around` of a service whose reads need no transaction (research, the library): every
 * mutation runs in one transaction of `withAfterCommit` (docs/adr/0045) — the service writes
 * on `ctx.em`, which is that transaction, and queues jobs about its rows with `afterCommit`, so
 * a mutation that fails leaves nothing written and queues nothing. A contract that declares
 * `idempotency` claims its key in the same transaction (docs/adr/0008), scoped by `scope`.
 * Queries and streams run as they are.
 */
export function writesInTransaction(keys: IdempotencyStore, scope: (call: OperationCall) => readonly [string, string]): Around {
  return (contract, call, next, input) => {
    if (contract.kind !== 'mutation') return next(call);
    return withAfterCommit(call.ctx.em, call.ctx.logger, (tx) => {
      const scoped: OperationCall = { ...call, ctx: { ...call.ctx, em: tx } };
      if (!contract.idempotency) return next(scoped);
      return idempotent(tx, keys, scope(scoped), contract, scoped, input, () => next(scoped));
    });
  };
}
