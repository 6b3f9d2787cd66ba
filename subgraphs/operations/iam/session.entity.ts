import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AppUserEntity } from './app-user.entity.js';

/** A refresh token (only its SHA-256 is stored); rotation keeps the `familyId`, so reuse of a rotated token revokes the family. */
export const RefreshTokenEntity = defineEntity({
  name: 'RefreshToken',
  tableName: 'refresh_token',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    userId: p.manyToOne(AppUserEntity).mapToPk().fieldName('user_id'),
    familyId: p.uuid(),
    tokenHash: p.string().columnType('char(64)'),
    accessJti: p.uuid(),
    expiresAt: p.datetime().columnType('timestamptz'),
    rotatedAt: p.datetime().columnType('timestamptz').nullable(),
    revokedAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type RefreshToken = InferEntity<typeof RefreshTokenEntity>;

/** An access token revoked before it expires (sign-out), kept until `expiresAt`. */
export const RevokedAccessTokenEntity = defineEntity({
  name: 'RevokedAccessToken',
  tableName: 'revoked_access_token',
  properties: {
    jti: p.uuid().primary(),
    expiresAt: p.datetime().columnType('timestamptz'),
  },
});

export type RevokedAccessToken = InferEntity<typeof RevokedAccessTokenEntity>;

/** A key that signs access tokens; the private JWK is sealed by the secret box. */
export const SigningKeyEntity = defineEntity({
  name: 'SigningKey',
  tableName: 'signing_key',
  properties: {
    kid: p.text().primary(),
    alg: p.text(),
    publicJwk: p.json<Record<string, unknown>>(),
    privateJwk: p.text(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type SigningKey = InferEntity<typeof SigningKeyEntity>;
