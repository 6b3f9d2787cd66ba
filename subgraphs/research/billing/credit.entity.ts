import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { KeyMode } from '../../../contracts/research/account-types.js';

/*
 * Prepaid credits. A balance changes only together with its ledger entry, under the balance row's lock
 * (credit-ledger.ts); the ledger is append-only (a trigger refuses updates and deletes).
 */

/** A workspace's credits in one mode (`live` or `test`). */
export const CreditBalanceEntity = defineEntity({
  name: 'CreditBalance',
  tableName: 'credit_balance',
  properties: {
    workspaceId: p.text().primary(),
    mode: p.text().$type<KeyMode>().primary(),
    balance: p.integer().default(0),
  },
});

/** One change of a balance: `delta`, the balance after it, what it was for (`kind`, `reference`, `reason`). */
export const CreditLedgerEntryEntity = defineEntity({
  name: 'CreditLedgerEntry',
  tableName: 'credit_ledger',
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    workspaceId: p.text(),
    mode: p.text().$type<KeyMode>(),
    delta: p.integer(),
    balanceAfter: p.integer(),
    kind: p.text(),
    reference: p.text().nullable(),
    reason: p.text().nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('clock_timestamp()'),
  },
});

/** A checkout for buying credits; `complete` once paid (then the credits are posted to the ledger). */
export const TopUpEntity = defineEntity({
  name: 'TopUp',
  tableName: 'top_up',
  properties: {
    id: p.text().primary(),
    workspaceId: p.text(),
    mode: p.text().$type<KeyMode>(),
    usdQuantity: p.integer(),
    credits: p.integer(),
    status: p.text().$type<'open' | 'complete'>(),
    sandbox: p.boolean(),
    url: p.text(),
    expiresAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    completedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type CreditBalance = InferEntity<typeof CreditBalanceEntity>;
export type CreditLedgerEntry = InferEntity<typeof CreditLedgerEntryEntity>;
export type TopUp = InferEntity<typeof TopUpEntity>;
