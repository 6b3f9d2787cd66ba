import type { Around, OperationCall } from '../../shared/contracts/implementation.js';
import { withAfterCommit } from '../../shared/after-commit.js';
import { idempotent, type IdempotencyStore } from '../../shared/idempotency.js';
import { ResearchError } from '../research.errors.js';
import type { WorkspaceActor } from './workspace-actor.js';

/** Research keys: per workspace and key mode (a signed-in user acts in live mode), in `research.idempotency_key`. */
const KEYS: IdempotencyStore = {
  table: '"research"."idempotency_key"',
  scopeColumns: ['workspace_id', 'mode'],
  errors: {
    required: () => ResearchError.idempotencyKeyRequired(),
    invalid: () => ResearchError.idempotencyKeyInvalid(),
    reused: () => ResearchError.idempotencyKeyReused(),
    inFlight: () => ResearchError.idempotencyKeyInFlight(),
  },
};

/**
 * The `around` of the research subgraph: a call that sends an `Idempotency-Key` to a contract
 * declaring `idempotency` runs in one transaction with its key's claim (the service's own
 * transactions nest in it), and the jobs it queues are queued after that commit. Every other
 * call runs as it is.
 */
export const idempotentWrites: Around = (contract, call, next, input) => {
  // Without a key an optional claim has nothing to do: the call runs as it would without one.
  const sent = Boolean(call.ctx.headers['idempotency-key']?.trim());
  if (!contract.idempotency || (contract.idempotency === 'optional' && !sent)) return next(call);
  const caller = call.caller as WorkspaceActor;
  return withAfterCommit(call.ctx.em, call.ctx.logger, (tx) => {
    const scoped: OperationCall = { ...call, ctx: { ...call.ctx, em: tx } };
    return idempotent(tx, KEYS, [caller.workspaceId, caller.mode], contract, scoped, input, () => next(scoped));
  });
};
