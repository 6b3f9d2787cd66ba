import type { IdempotencyStore } from '../../shared/idempotency.js';
import { writesInTransaction } from '../../shared/write-transaction.js';
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
 * The `around` of the research subgraph: every mutation runs in one transaction, with the
 * claim of its `Idempotency-Key` when its contract declares one, and the jobs it queues are
 * queued after that commit.
 */
export const researchWrites = writesInTransaction({
  keys: KEYS,
  scope: (call) => {
    const caller = call.caller as WorkspaceActor;
    return [caller.workspaceId, caller.mode];
  },
});
