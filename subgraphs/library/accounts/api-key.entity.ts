import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * An API key of the library. Only the SHA-256 of the key is stored (`keyHash`);
 * `prefix` keeps its first characters so an owner can tell keys apart. `rpdOverride`
 * replaces the plan's daily quota when an admin sets one. Counters live apart, in
 * `api_key_window` and `api_key_usage`, written by atomic SQL (see usage.repository.ts).
 */
export const ApiKeyEntity = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.integer().primary().autoincrement(),
    keyHash: p.string().length(64).unique(),
    prefix: p.string().length(16),
    email: p.string().length(254),
    org: p.string().length(200).nullable(),
    plan: p.string().length(32),
    status: p.string().length(16),
    rpdOverride: p.integer().nullable(),
    /** `register`, `admin` or `account`: who issued the key. */
    source: p.string().length(16),
    /** The Qantara account (operations' user id) that created the key signed in; null for registered and admin keys. */
    ownerUserId: p.uuid().nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});

export type ApiKey = InferEntity<typeof ApiKeyEntity>;
