import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from '../organizations/organization.entity.js';
import { AppUserEntity } from './app-user.entity.js';

/** An in-app notification of a user. */
export const NotificationEntity = defineEntity({
  name: 'Notification',
  tableName: 'notification',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organizationId: p.manyToOne(OrganizationEntity).mapToPk().fieldName('organization_id'),
    userId: p.manyToOne(AppUserEntity).mapToPk().fieldName('user_id'),
    type: p.string().length(200),
    title: p.string().length(500),
    body: p.text(),
    data: p.json<Record<string, unknown>>().defaultRaw("'{}'::jsonb"),
    readAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type Notification = InferEntity<typeof NotificationEntity>;
