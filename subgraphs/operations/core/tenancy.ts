import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContract } from '../../../contracts/operation.js';
import type { Around, OperationCall } from '../../shared/contracts/implementation.js';
import { APP_ROLE } from '../migrations/tenant-tables.js';
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
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** How long a stored response is replayed; older keys are purged. */
export const IDEMPOTENCY_TTL_HOURS = 24;

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
  await tx.execute(SETTINGS, [principal?.organizationId ?? '', objects, principal?.userId ?? '', requestId, operation]);
}

/** Stable JSON: keys sorted, so equal payloads hash alike however they were written. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

async function idempotent(
  tx: EntityManager,
  contract: OperationContract,
  call: OperationCall,
  input: unknown,
  run: () => Promise<unknown>,
) {
  const key = call.ctx.headers['idempotency-key']?.trim();
  if (!key) {
    if (contract.idempotency === 'required') throw OperationsError.idempotencyKeyRequired();
    return run();
  }
  if (!UUID_V4.test(key)) throw OperationsError.idempotencyKeyInvalid();
  const principal = call.caller as Principal | undefined;
  const scope = [principal?.organizationId ?? NIL, principal?.userId ?? NIL, contract.name, key.toLowerCase()] as const;
  const lock = sha256(scope.join('|')).readBigInt64BE(0).toString();
  const [claim] = await tx.execute<Array<{ locked: boolean }>>('select pg_try_advisory_xact_lock(?::bigint) as locked', [lock]);
  if (!claim?.locked) throw OperationsError.idempotencyKeyInFlight();
  const requestHash = sha256(canonical(input)).toString('hex');
  const [stored] = await tx.execute<Array<{ request_hash: string; result: unknown }>>(
    `select "request_hash", "result" from "operations"."idempotency_key"
     where "organization_id" = ? and "user_id" = ? and "operation" = ? and "key" = ?
       and "created_at" > now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`,
    [...scope],
  );
  if (stored) {
    if (stored.request_hash !== requestHash) throw OperationsError.idempotencyKeyReused();
    call.ctx.extensions.idempotentReplayed = true;
    return stored.result;
  }
  const result = await run();
  await tx.execute(
    `insert into "operations"."idempotency_key" ("organization_id", "user_id", "operation", "key", "request_hash", "result")
     values (?, ?, ?, ?, ?, ?::jsonb)
     on conflict ("organization_id", "user_id", "operation", "key")
     do update set "request_hash" = excluded."request_hash", "result" = excluded."result", "created_at" = now()`,
    [...scope, requestHash, JSON.stringify(result ?? null)],
  );
  return result;
}

/**
 * The `around` of the operations subgraph. Open queries (health, keys) run as they are,
 * so a readiness probe answers even when no transaction can begin.
 */
export const tenantTransaction: Around = (contract, call, next, input) => {
  if (contract.access.kind === 'public' && contract.kind === 'query') return next(call);
  return withAfterCommit(call.ctx.em, call.ctx.logger, async (tx) => {
    await enterTenant(tx, call.caller as Principal | undefined, contract.name, call.ctx.requestId);
    const scoped: OperationCall = { ...call, ctx: { ...call.ctx, em: tx } };
    const run = async () => {
      const result = await next(scoped);
      await publishOperationEvents(tx, contract, call.caller as Principal | undefined, result);
      return result;
    };
    return contract.idempotency ? idempotent(tx, contract, scoped, input, run) : run();
  });
};
