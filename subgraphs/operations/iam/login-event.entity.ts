import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AppUserEntity } from './app-user.entity.js';

/** One sign-in attempt and its outcome, for the user's history and the admins' log. */
export const LoginEventEntity = defineEntity({
  name: 'LoginEvent',
  tableName: 'login_event',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    userId: p.manyToOne(AppUserEntity).mapToPk().fieldName('user_id').nullable(),
    email: p.string().length(254),
    ip: p.text().nullable(),
    userAgent: p.text().nullable(),
    method: p.string().length(32),
    outcome: p.string().length(32),
    at: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type LoginEvent = InferEntity<typeof LoginEventEntity>;
