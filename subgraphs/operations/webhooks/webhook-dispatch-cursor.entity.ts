import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The single row holding the last outbox sequence fanned out to webhook deliveries. */
export const WebhookDispatchCursorEntity = defineEntity({
  name: 'WebhookDispatchCursor',
  tableName: 'webhook_dispatch_cursor',
  properties: {
    singleton: p.boolean().primary().default(true),
    sequence: p.bigint('number'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type WebhookDispatchCursor = InferEntity<typeof WebhookDispatchCursorEntity>;
