import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SagaEntity } from './saga.entity.js';
import { OrganizationEntity } from '../organizations/organization.entity.js';
import type { SAGA_QUEUES } from '../../../contracts/operations/sagas.contract.js';

/** A saga job that exhausted its attempts, kept for an operator. */
export const DeadLetterEntity = defineEntity({
  name: 'DeadLetter',
  tableName: 'dead_letter',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    queue: p.string().length(64).$type<(typeof SAGA_QUEUES)[number]>(),
    jobId: p.string().length(200),
    sagaId: p.manyToOne(SagaEntity).mapToPk().fieldName('saga_id'),
    step: p.string().length(64),
    attemptsMade: p.integer(),
    error: p.text(),
    failedAt: p.datetime().columnType('timestamptz').defaultRaw('clock_timestamp()'),
  },
});

export type DeadLetter = InferEntity<typeof DeadLetterEntity>;
