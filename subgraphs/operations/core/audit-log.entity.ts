import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** One row per changed record, written by the `audit_row` trigger in the writing transaction (never by the application). */
export const AuditLogEntity = defineEntity({
  name: 'AuditLog',
  tableName: 'audit_log',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    at: p.datetime().columnType('timestamptz').defaultRaw('clock_timestamp()'),
    organizationId: p.uuid().nullable(),
    actorId: p.uuid().nullable(),
    entityType: p.text(),
    entityId: p.text(),
    action: p.text(),
    operation: p.text().nullable(),
    changes: p.json<Record<string, unknown>>(),
    requestId: p.text().nullable(),
  },
});

export type AuditLog = InferEntity<typeof AuditLogEntity>;
