import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AppUserEntity } from './app-user.entity.js';

/** A sign-in waiting for its second factor. */
export const TwoFactorChallengeEntity = defineEntity({
  name: 'TwoFactorChallenge',
  tableName: 'two_factor_challenge',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    userId: p.manyToOne(AppUserEntity).mapToPk().fieldName('user_id'),
    codeHash: p.string().columnType('char(64)').nullable(),
    codeExpiresAt: p.datetime().columnType('timestamptz').nullable(),
    attempts: p.integer().default(0),
    ip: p.text().nullable(),
    userAgent: p.text().nullable(),
    expiresAt: p.datetime().columnType('timestamptz'),
    usedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type TwoFactorChallenge = InferEntity<typeof TwoFactorChallengeEntity>;

/** A one-time second-factor backup code (SHA-256 only). */
export const BackupCodeEntity = defineEntity({
  name: 'BackupCode',
  tableName: 'backup_code',
  properties: {
    userId: p.uuid().primary(),
    codeHash: p.string().columnType('char(64)').primary(),
    usedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type BackupCode = InferEntity<typeof BackupCodeEntity>;

/** An address approved for a user whose sign-in is limited to known addresses. */
export const AllowedIpEntity = defineEntity({
  name: 'AllowedIp',
  tableName: 'allowed_ip',
  properties: {
    userId: p.uuid().primary(),
    ip: p.text().primary(),
    approvedAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type AllowedIp = InferEntity<typeof AllowedIpEntity>;
