import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from '../organizations/organization.entity.js';
import { AppUserEntity } from './app-user.entity.js';
import type { ApiKeyScope } from '../../../contracts/access.js';

/** An organization's API key acting for a user; only the SHA-256 is stored, `prefix` tells keys apart. */
export const ApiKeyEntity = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    userId: p.manyToOne(AppUserEntity).mapToPk().fieldName('user_id'),
    label: p.string().length(200),
    prefix: p.string().columnType('char(12)'),
    keyHash: p.string().columnType('char(64)'),
    scopes: p.array().$type<ApiKeyScope[]>().columnType('text[]'),
    expiresAt: p.datetime().columnType('timestamptz'),
    revokedAt: p.datetime().columnType('timestamptz').nullable(),
    lastUsedAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type ApiKey = InferEntity<typeof ApiKeyEntity>;

/** Requests made with an organization's keys per day, incremented atomically. */
export const ApiKeyUsageEntity = defineEntity({
  name: 'ApiKeyUsage',
  tableName: 'api_key_usage',
  properties: {
    organizationId: p.uuid().primary(),
    day: p.date().primary(),
    count: p.integer(),
  },
});

export type ApiKeyUsage = InferEntity<typeof ApiKeyUsageEntity>;
