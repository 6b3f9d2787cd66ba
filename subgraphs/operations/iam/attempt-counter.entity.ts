import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Attempts per scope and subject in a fixed window, incremented atomically (see attempts.ts). */
export const AttemptCounterEntity = defineEntity({
  name: 'AttemptCounter',
  tableName: 'attempt_counter',
  properties: {
    scope: p.text().primary(),
    subject: p.text().primary(),
    windowStart: p.datetime().columnType('timestamptz').primary(),
    count: p.integer(),
  },
});

export type AttemptCounter = InferEntity<typeof AttemptCounterEntity>;
