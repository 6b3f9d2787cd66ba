import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContract } from '../../../contracts/operation.js';
import type { Around, OperationCall } from '../../shared/contracts/implementation.js';
import { idempotent, type IdempotencyStore } from '../../shared/idempotency.js';
import { APP_ROLE } from './database-names.js';
import { OperationsError } from '../operations.errors.js';
import { withAfterCommit } from './after-commit.js';
import { publishOperationEvents } from './domain-events.js';
import type { Principal } from './principal.js';

/**
 * Every operations call runs in one transaction, as the application role (never the
 * tables' owner, so row-level security applies), with the caller's organization, objects,
 * identity, request and operation set for the transaction only (`SET LOCAL`): the
 * tenant and object-scope policies and the audit trigger read them. Operations that
 * require an `Idempotency-Key` claim it in the same transaction (docs/adr/0008). Work
 * registered with `afterCommit` (e.g. queueing a saga's first step) runs once it commits.
 * The events an operation declares are written to the outbox after it succeeds, in the
 * same transaction (a replayed idempotent call publishes nothing again).
 */

const NIL = '00000000-0000-0000-0000-000000000000';
export { IDEMPOTENCY_TTL_HOURS } from '../../shared/idempotency.js';

/** Operations keys: per organization and user, in `operations.idempotency_key` (tenant policy applies). */
const KEYS: IdempotencyStore = {
  table: '"operations"."idempotency_key"',
  scopeColumns: ['organization_id', 'user_id'],
  errors: {
    required: () => OperationsError.idempotencyKeyRequired(),
    invalid: () => OperationsError.idempotencyKeyInvalid(),
    reused: () => OperationsError.idempotencyKeyReused(),
    inFlight: () => OperationsError.idempotencyKeyInFlight(),
  },
};

const SETTINGS = `select set_config('role', '${APP_ROLE}', true), set_config('app.organization_id', ?, true),
  set_config('app.object_ids', ?, true), set_config('app.actor_id', ?, true), set_config('app.request_id', ?, true),
  set_config('app.operation', ?, true)`;

export async function enterTenant(
  tx: EntityManager,
  principal: Principal | undefined,
  operation: string,
  requestId: string,
): Promise<void> {
  // A caller limited to no production object sees none (an empty setting would read as every object).
  const objects = principal?.objects === '*' || !principal ? '*' : principal.objects.length === 0 ? NIL : principal.objects.join(',');
  // raw SQL: SET LOCAL of the settings row-level security and the audit trigger read
  await tx.execute(SETTINGS, [principal?.organizationId ?? '', objects, principal?.userId ?? '', requestId, operation]);
}

function idempotentCall(tx: EntityManager, contract: OperationContract, call: OperationCall, input: unknown, run: () => Promise<unknown>) {
  const principal = call.caller as Principal | undefined;
  return idempotent(tx, KEYS, [principal?.organizationId ?? NIL, principal?.userId ?? NIL], contract, call, input, run);
}

/**
 * The `around` of the operations subgraph. Open queries (health, keys) run as they are,
 * so a readiness probe answers even when no transaction can begin.
 */
export const tenantTransaction: Around = (contract, call, next, input) => {
  if (contract.access.every((access) => access.kind === 'public') && contract.kind === 'query') return next(call);
  return withAfterCommit(call.ctx.em, call.ctx.logger, async (tx) => {
    await enterTenant(tx, call.caller as Principal | undefined, contract.name, call.ctx.requestId);
    const scoped: OperationCall = { ...call, ctx: { ...call.ctx, em: tx } };
    const run = async () => {
      const result = await next(scoped);
      await publishOperationEvents(tx, contract, call.caller as Principal | undefined, result);
      return result;
    };
    return contract.idempotency ? idempotentCall(tx, contract, scoped, input, run) : run();
  });
};
