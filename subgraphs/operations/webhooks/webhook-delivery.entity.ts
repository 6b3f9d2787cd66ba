import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from '../organizations/organization.entity.js';
import { WebhookEndpointEntity } from './webhook-endpoint.entity.js';

/** One event to deliver to one endpoint, with its retry state. */
export const WebhookDeliveryEntity = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    /** The endpoint (its id; the relation lets queries join it). */
    endpointId: p.manyToOne(WebhookEndpointEntity).mapToPk().fieldName('endpoint_id'),
    eventSequence: p.bigint('number'),
    eventId: p.uuid(),
    eventType: p.text(),
    status: p.string().length(16).default('pending'),
    attempts: p.integer().default(0),
    maxAttempts: p.integer().default(8),
    nextAttemptAt: p.datetime().columnType('timestamptz').nullable(),
    lastAttemptAt: p.datetime().columnType('timestamptz').nullable(),
    lastResponseStatus: p.integer().nullable(),
    lastError: p.string().length(1000).nullable(),
    deliveredAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type WebhookDelivery = InferEntity<typeof WebhookDeliveryEntity>;
