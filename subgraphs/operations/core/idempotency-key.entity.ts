import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The stored result of an idempotent mutation, keyed by the caller and its `Idempotency-Key`; `requestHash` tells a replay from a different request under the same key. */
export const IdempotencyKeyEntity = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_key',
  properties: {
    organizationId: p.uuid().primary(),
    userId: p.uuid().primary(),
    operation: p.text().primary(),
    key: p.uuid().primary(),
    requestHash: p.string().columnType('char(64)'),
    result: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type IdempotencyKey = InferEntity<typeof IdempotencyKeyEntity>;
