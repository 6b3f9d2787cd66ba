import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { OrganizationData } from '../../../contracts/operations/iam-types.js';

/** A tenant: every tenant table's `organization_id` points here. */
export const OrganizationEntity = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    slug: p.string().length(50),
    name: p.string().length(200),
    status: p.string().length(16).$type<OrganizationData['status']>().default('active'),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    plan: p.string().length(16).$type<OrganizationData['plan']>().default('free'),
  },
});

export type Organization = InferEntity<typeof OrganizationEntity>;
