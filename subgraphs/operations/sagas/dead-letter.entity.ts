import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { SAGA_QUEUES } from '../../../contracts/operations/sagas.contract.js';

/** A saga job that exhausted its attempts, kept for an operator. */
export const DeadLetterEntity = defineEntity({
  name: 'DeadLetter',
  tableName: 'dead_letter',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.uuid(),
    queue: p.string().length(64).$type<(typeof SAGA_QUEUES)[number]>(),
    jobId: p.string().length(200),
    sagaId: p.uuid(),
    step: p.string().length(64),
    attemptsMade: p.integer(),
    error: p.text(),
    failedAt: p.datetime().columnType('timestamptz').defaultRaw('clock_timestamp()'),
  },
});

export type DeadLetter = InferEntity<typeof DeadLetterEntity>;
