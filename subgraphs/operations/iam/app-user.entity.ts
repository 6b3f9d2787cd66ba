import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from '../organizations/organization.entity.js';

/** A person who signs in. `organizationId` is null for a platform super admin; `roles` hold system-role codes, `objectIds` the production objects an object-scoped role is limited to. */
export const AppUserEntity = defineEntity({
  name: 'AppUser',
  tableName: 'app_user',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    email: p.string().length(254),
    passwordHash: p.text().nullable(),
    name: p.string().length(200),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id').nullable(),
    roles: p.array().columnType('text[]').defaultRaw("'{}'::text[]"),
    objectIds: p.array().columnType('uuid[]').defaultRaw("'{}'::uuid[]"),
    superAdmin: p.boolean().default(false),
    active: p.boolean().default(true),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    updatedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    emailVerifiedAt: p.datetime().columnType('timestamptz').nullable(),
    bannedAt: p.datetime().columnType('timestamptz').nullable(),
    twoFactorEmail: p.boolean().default(false),
    totpSecret: p.text().nullable(),
    totpEnabled: p.boolean().default(false),
    ipWhitelist: p.boolean().default(false),
    onboarding: p.json<Record<string, unknown>>().defaultRaw("'{}'::jsonb"),
    referralCode: p.string().length(100).nullable(),
    affiliateCode: p.string().length(100).nullable(),
    invitationCode: p.string().length(100).nullable(),
    apiAccess: p.boolean().default(true),
  },
});

export type AppUser = InferEntity<typeof AppUserEntity>;
