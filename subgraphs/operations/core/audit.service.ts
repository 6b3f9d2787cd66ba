import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ContractInput } from '../../../contracts/operation.js';
import type { AuditEntry, coreAuditHistory } from '../../../contracts/operations/records.contract.js';
import { cursorList } from './cursor-list.js';

type Entry = z.output<typeof AuditEntry>;

const camel = (name: string) => name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * The audit log's history of one record, newest first; rows are written by the audit
 * trigger of each table, in cursor pages (the shared cursor list: a change's id is the cursor,
 * changes at the same time are ordered by id, so a page boundary never skips one).
 */
export class AuditService {
  async history(em: EntityManager, input: ContractInput<typeof coreAuditHistory>) {
    return cursorList(
      em,
      {
        table: '"operations"."audit_log"',
        // Times read with microseconds (a JS Date keeps milliseconds).
        select: `t.*, to_char(t."at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "at_iso"`,
        owner: { entity_type: input.entityType, entity_id: input.entityId },
        orderBy: 'at',
        direction: 'desc',
      },
      input,
      (row): Entry => ({
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
      }),
    );
  }
}
