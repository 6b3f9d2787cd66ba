import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ContractInput } from '../../../contracts/operation.js';
import type { AuditEntry, coreAuditHistory } from '../../../contracts/operations/records.contract.js';
import { OperationsError } from '../operations.errors.js';

type Entry = z.output<typeof AuditEntry>;

/** An audit time as this list writes it: UTC, microseconds. */
const AUDIT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Whether a value is such a time and a real one (no 30 February, which PostgreSQL would refuse to cast). */
function isAuditTime(value: string): boolean {
  if (!AUDIT_TIME.test(value)) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 19) === value.slice(0, 19);
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * The audit log's history of one record, newest first; rows are written by the audit
 * trigger of each table. Times carry microseconds, so a cursor never skips a change.
 */
export class AuditService {
  async history(em: EntityManager, input: ContractInput<typeof coreAuditHistory>) {
    const cursor = input.cursor ?? null;
    // A cursor is the `at` of an item this list served; anything else names no page (422, not page 1 again).
    if (cursor !== null && !isAuditTime(cursor)) {
      throw OperationsError.invalid('cursor', 'must be the nextCursor of a previous page');
    }
    // raw SQL: times read with microseconds (a JS Date keeps milliseconds); the cursor depends on them
    const rows = await em.execute<Array<Record<string, unknown>>>(
      `select *, to_char("at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "at_iso"
       from "operations"."audit_log" where "entity_type" = ? and "entity_id" = ? and (?::timestamptz is null or "at" < ?::timestamptz)
       order by "at" desc, "id" desc limit ?`,
      [input.entityType, input.entityId, cursor, cursor, input.limit + 1],
    );
    const items: Entry[] = rows.slice(0, input.limit).map((row) => ({
      id: row.id as string,
      at: row.at_iso as string,
      actorId: (row.actor_id as string | null) ?? null,
      organizationId: (row.organization_id as string | null) ?? null,
      entityType: row.entity_type as Entry['entityType'],
      entityId: row.entity_id as string,
      action: row.action as Entry['action'],
      operation: (row.operation as string | null) ?? null,
      changes: Object.fromEntries(Object.entries(row.changes as Entry['changes']).map(([field, change]) => [camel(field), change])),
      requestId: (row.request_id as string | null) ?? null,
    }));
    return { items, nextCursor: rows.length > input.limit ? items.at(-1)!.at : null };
  }
}
