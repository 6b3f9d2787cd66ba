import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/*
 * The counters behind quotas and rate limits. Every write is one atomic `insert … on conflict … do
 * update … where` statement (usage.repository.ts, address-limit.ts and the `library.admit_call`
 * function), which the ORM cannot express; the entities describe the columns and serve plain reads.
 * `day` is the UTC day (YYYY-MM-DD), `minute` the minute number within the window.
 */

/** A key's two windows for one day: calls counted today and in the current minute, and the limits applied. */
export const ApiKeyWindowEntity = defineEntity({
  name: 'ApiKeyWindow',
  tableName: 'api_key_window',
  properties: {
    keyId: p.integer().primary(),
    day: p.date().primary(),
    dayCount: p.integer(),
    minute: p.integer(),
    minuteCount: p.integer(),
    dayLimit: p.integer(),
    minuteLimit: p.integer(),
    lastUsedAt: p.datetime().columnType('timestamptz'),
  },
});

/** Calls of one key to one operation on one day (the usage log). */
export const ApiKeyUsageEntity = defineEntity({
  name: 'ApiKeyUsage',
  tableName: 'api_key_usage',
  properties: {
    keyId: p.integer().primary(),
    day: p.date().primary(),
    operation: p.string().length(64).primary(),
    calls: p.integer(),
  },
});

/** The open routes' windows for one client address and day. */
export const AddressWindowEntity = defineEntity({
  name: 'AddressWindow',
  tableName: 'address_window',
  properties: {
    address: p.text().primary(),
    day: p.date().primary(),
    minute: p.bigint('number'),
    minuteCount: p.integer(),
    dayCount: p.integer(),
  },
});

/** Registrations per e-mail address or per client address (`scope`) and day. */
export const RegistrationCountEntity = defineEntity({
  name: 'RegistrationCount',
  tableName: 'registration_count',
  properties: {
    scope: p.string().length(8).primary(),
    subject: p.string().length(254).primary(),
    day: p.date().primary(),
    count: p.integer(),
  },
});

export type ApiKeyWindow = InferEntity<typeof ApiKeyWindowEntity>;
export type ApiKeyUsage = InferEntity<typeof ApiKeyUsageEntity>;
export type AddressWindow = InferEntity<typeof AddressWindowEntity>;
export type RegistrationCount = InferEntity<typeof RegistrationCountEntity>;
