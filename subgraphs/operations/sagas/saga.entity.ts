import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from '../organizations/organization.entity.js';

/** A long-running operation of several steps, compensated in reverse when a step fails. */
export const SagaEntity = defineEntity({
  name: 'Saga',
  tableName: 'saga',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    type: p.string().length(100),
    entityType: p.string().length(100),
    entityId: p.uuid(),
    actorId: p.uuid().nullable(),
    payload: p.json<Record<string, unknown>>(),
    status: p.string().length(16).$type<'running' | 'compensating' | 'completed' | 'compensated' | 'failed'>().default('running'),
    error: p.text().nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    finishedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type Saga = InferEntity<typeof SagaEntity>;

/** A step of a saga, in `position` order. */
export const SagaStepEntity = defineEntity({
  name: 'SagaStep',
  tableName: 'saga_step',
  properties: {
    sagaId: p.uuid().primary(),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    position: p.smallint(),
    name: p.string().length(64).primary(),
    status: p
      .string()
      .length(16)
      .$type<'pending' | 'running' | 'completed' | 'failed' | 'compensating' | 'compensated'>()
      .default('pending'),
    attempts: p.integer().default(0),
    compensationAttempts: p.integer().default(0),
    output: p.json<Record<string, unknown>>().nullable(),
    error: p.text().nullable(),
    startedAt: p.datetime().columnType('timestamptz').nullable(),
    finishedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type SagaStep = InferEntity<typeof SagaStepEntity>;
