import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { currentTenantKey, timestamps, timestamptz } from '../../domain-columns.js';

/**
 * A supplier of an organization, identified by BIN or IIN. `status` is computed by the database from
 * `stage` (a submitted supplier still reads as a draft).
 */
export const SupplierEntity = defineEntity({
  name: 'Supplier',
  tableName: 'supplier',
  properties: {
    ...currentTenantKey(),
    bin: p.character().length(12).nullable(),
    iin: p.character().length(12).nullable(),
    legalName: p.string().length(500),
    shortName: p.string().length(200).nullable(),
    legalAddress: p.string().length(1000).nullable(),
    legalFormCode: p.string().length(16).nullable(),
    countryCode: p.character().length(2).default('KZ'),
    stage: p
      .enum(['draft', 'submitted', 'active', 'suspended', 'archived'] as const)
      .columnType('varchar(16)')
      .default('draft'),
    status: p.string().length(16).generated(`(case when "stage" = 'submitted' then 'draft' else "stage" end) stored`).nullable(),
    categories: p.array().columnType('text[]').defaultRaw(`'{}'`),
    suspendedReason: p.string().length(32).nullable(),
    suspendedReasonText: p.string().length(1000).nullable(),
    unblockReason: p.string().length(1000).nullable(),
    archivedReason: p.string().length(1000).nullable(),
    submittedAt: timestamptz().nullable(),
    submittedBy: p.uuid().nullable(),
    activatedAt: timestamptz().nullable(),
    activatedBy: p.uuid().nullable(),
    suspendedAt: timestamptz().nullable(),
    unblockedAt: timestamptz().nullable(),
    archivedAt: timestamptz().nullable(),
    archivedCoApprovedBy: p.uuid().nullable(),
    createdBy: p.uuid(),
    ...timestamps(),
  },
});

export type Supplier = InferEntity<typeof SupplierEntity>;

/** A contact person of a supplier; the database keeps one primary contact per supplier. */
export const SupplierContactEntity = defineEntity({
  name: 'SupplierContact',
  tableName: 'supplier_contact',
  properties: {
    ...currentTenantKey(),
    supplierId: p.uuid(),
    fullName: p.string().length(200),
    position: p.string().length(200).nullable(),
    phone: p.string().length(50).nullable(),
    email: p.string().length(254).nullable(),
    isPrimary: p.boolean().default(false),
    ...timestamps(),
  },
});

export type SupplierContact = InferEntity<typeof SupplierContactEntity>;

/** A bank account of a supplier; the database keeps one primary account per supplier. */
export const SupplierBankAccountEntity = defineEntity({
  name: 'SupplierBankAccount',
  tableName: 'supplier_bank_account',
  properties: {
    ...currentTenantKey(),
    supplierId: p.uuid(),
    bankName: p.string().length(200),
    bik: p.string().length(8).nullable(),
    iban: p.character().length(20),
    bk: p.string().length(2).nullable(),
    currency: p.character().length(3),
    isPrimary: p.boolean().default(false),
    changeReason: p.string().length(1000).nullable(),
    ...timestamps(),
  },
});

export type SupplierBankAccount = InferEntity<typeof SupplierBankAccountEntity>;
