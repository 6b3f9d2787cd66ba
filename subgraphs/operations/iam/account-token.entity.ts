import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AppUserEntity } from './app-user.entity.js';

/** A one-time token sent by e-mail (verification, password reset, invitation…); only its SHA-256 is stored. */
export const AccountTokenEntity = defineEntity({
  name: 'AccountToken',
  tableName: 'account_token',
  properties: {
    tokenHash: p.string().columnType('char(64)').primary(),
    userId: p.manyToOne(AppUserEntity).mapToPk().fieldName('user_id'),
    purpose: p.string().length(32),
    payload: p.json<Record<string, unknown>>().defaultRaw("'{}'::jsonb"),
    expiresAt: p.datetime().columnType('timestamptz'),
    usedAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type AccountToken = InferEntity<typeof AccountTokenEntity>;
