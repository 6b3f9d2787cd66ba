import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from '../organizations/organization.entity.js';

/** An organization's webhook target; secrets are sealed, the previous one valid until `previousSecretExpiresAt` after a rotation. */
export const WebhookEndpointEntity = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoint',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    url: p.string().length(2048),
    description: p.string().length(500).default(''),
    eventTypes: p.array().columnType('text[]'),
    active: p.boolean().default(true),
    secretSealed: p.text(),
    previousSecretSealed: p.text().nullable(),
    previousSecretExpiresAt: p.datetime().columnType('timestamptz').nullable(),
    secretRotatedAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type WebhookEndpoint = InferEntity<typeof WebhookEndpointEntity>;
