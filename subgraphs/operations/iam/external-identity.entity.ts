import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AppUserEntity } from './app-user.entity.js';

/** A user's account at an external identity provider, by the provider's subject. */
export const ExternalIdentityEntity = defineEntity({
  name: 'ExternalIdentity',
  tableName: 'external_identity',
  properties: {
    provider: p.string().length(64).primary(),
    subject: p.text().primary(),
    userId: p.manyToOne(AppUserEntity).mapToPk().fieldName('user_id'),
    linkedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type ExternalIdentity = InferEntity<typeof ExternalIdentityEntity>;

/** A sign-in in flight at an external provider, found again by its `state`. */
export const ExternalLoginEntity = defineEntity({
  name: 'ExternalLogin',
  tableName: 'external_login',
  properties: {
    state: p.string().columnType('char(64)').primary(),
    provider: p.string().length(64),
    codeVerifier: p.text(),
    nonce: p.text(),
    locale: p.string().length(16),
    next: p.text().nullable(),
    redirectUri: p.text(),
    expiresAt: p.datetime().columnType('timestamptz'),
  },
});

export type ExternalLogin = InferEntity<typeof ExternalLoginEntity>;
