import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A domain event appended in the transaction of its change; `sequence` orders the feed webhooks and subscribers read. */
export const OutboxEventEntity = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox_event',
  properties: {
    sequence: p.bigint('number').primary().autoincrement(),
    id: p.uuid().defaultRaw('gen_random_uuid()'),
    type: p.text(),
    organizationId: p.uuid().nullable(),
    payload: p.json<Record<string, unknown>>(),
    occurredAt: p.datetime().columnType('timestamptz').defaultRaw('clock_timestamp()'),
  },
});

export type OutboxEvent = InferEntity<typeof OutboxEventEntity>;
