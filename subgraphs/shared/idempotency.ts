import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContract } from '../../contracts/operation.js';
import type { OperationCall } from './contracts/implementation.js';

/**
 * `Idempotency-Key` for every service (docs/adr/0008): a call whose contract declares
 * `idempotency` claims its key inside the transaction that does its work. The first call
 * with a key runs and its answer is stored with a hash of the input; a repeat with the same
 * input gets the stored answer (`Idempotent-Replayed: true`) and changes nothing, a repeat
 * with another input is refused (422), and one that arrives while the first still runs is
 * refused (409, retry). Keys are scoped to the caller (`scope`: e.g. organization and user,
 * or workspace and mode) and the operation, and replayed for `IDEMPOTENCY_TTL_HOURS`.
 */

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** How long a stored response is replayed; older keys are purged. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/** The service's own errors for the four refusals. */
export interface IdempotencyErrors {
  required(): Error;
  invalid(): Error;
  reused(): Error;
  inFlight(): Error;
}

/** Where a service keeps its keys: a table with the scope columns, `operation`, `key`, `request_hash`, `result`, `created_at`. */
export interface IdempotencyStore {
  readonly table: string;
  /** The caller's scope columns, in the order `scope` gives their values (they and `operation`, `key` are the primary key). */
  readonly scopeColumns: readonly [string, string];
  readonly errors: IdempotencyErrors;
}

/** Stable JSON: keys sorted, so equal payloads hash alike however they were written. */
export function canonical(value: unknown): string {
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

/** The advisory lock a call with this key holds while it runs (a bigint, as text). */
export function idempotencyLock(store: Pick<IdempotencyStore, 'table'>, values: readonly [string, string, string, string]): string {
  return sha256([store.table, ...values].join('|'))
    .readBigInt64BE(0)
    .toString();
}

/**
 * Runs `run` once per key: `tx` must be the transaction `run` writes in, so the stored
 * answer commits with the work or not at all.
 */
export async function idempotent(
  tx: EntityManager,
  store: IdempotencyStore,
  scope: readonly [string, string],
  contract: OperationContract,
  call: OperationCall,
  input: unknown,
  run: () => Promise<unknown>,
): Promise<unknown> {
  const key = call.ctx.headers['idempotency-key']?.trim();
  if (!key) {
    if (contract.idempotency === 'required') throw store.errors.required();
    return run();
  }
  if (!UUID_V4.test(key)) throw store.errors.invalid();
  const values = [...scope, contract.name, key.toLowerCase()] as const;
  const lock = sha256([store.table, ...values].join('|'))
    .readBigInt64BE(0)
    .toString();
  // raw SQL: locking, a transaction advisory lock claims the key.
  const [claim] = await tx.execute<Array<{ locked: boolean }>>('select pg_try_advisory_xact_lock(?::bigint) as locked', [lock]);
  if (!claim?.locked) throw store.errors.inFlight();
  const requestHash = sha256(canonical(input)).toString('hex');
  const [first, second] = store.scopeColumns.map((column) => `"${column}"`);
  // raw SQL: the shared store over each service's idempotency table, which the store names, read under the key's lock.
  const [stored] = await tx.execute<Array<{ request_hash: string; result: unknown }>>(
    `select "request_hash", "result" from ${store.table}
     where ${first} = ? and ${second} = ? and "operation" = ? and "key" = ?
       and "created_at" > now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`,
    [...values],
  );
  if (stored) {
    if (stored.request_hash !== requestHash) throw store.errors.reused();
    call.ctx.extensions.idempotentReplayed = true;
    return stored.result;
  }
  const result = await run();
  // raw SQL: upsert into the store's table (a stale entry past its time to live is overwritten).
  await tx.execute(
    `insert into ${store.table} (${first}, ${second}, "operation", "key", "request_hash", "result")
     values (?, ?, ?, ?, ?, ?::jsonb)
     on conflict (${first}, ${second}, "operation", "key")
     do update set "request_hash" = excluded."request_hash", "result" = excluded."result", "created_at" = now()`,
    [...values, requestHash, JSON.stringify(result ?? null)],
  );
  return result;
}
