import { z } from 'zod';
import { timestamps } from '../fields.js';

/** Suppliers, their contacts and bank accounts as the API returns them (seed 002, Resources). */

export const SUPPLIER_STATUSES = ['draft', 'active', 'suspended', 'archived'] as const;
export const SUSPENDED_REASONS = ['payment_delay', 'delivery_delay', 'quality_issue', 'documents_expired', 'sanctions', 'other'] as const;

export const SupplierStatus = z.enum(SUPPLIER_STATUSES).meta({ id: 'SupplierStatus' });
export const SuspendedReason = z
  .enum(SUSPENDED_REASONS)
  .meta({ id: 'SupplierSuspendedReason', description: 'Why a supplier is suspended.' });

const at = () => z.string().nullable().describe('ISO 8601, or null.');
const who = () => z.uuid().nullable();

export const Supplier = z
  .object({
    id: z.uuid(),
    bin: z.string().nullable(),
    iin: z.string().nullable(),
    legalName: z.string(),
    shortName: z.string().nullable(),
    legalAddress: z.string().nullable(),
    legalFormCode: z.string().nullable(),
    countryCode: z.string(),
    status: SupplierStatus,
    categories: z.array(z.string()),
    suspendedReason: SuspendedReason.nullable(),
    suspendedReasonText: z.string().nullable(),
    archivedReason: z.string().nullable(),
    submittedAt: at(),
    submittedBy: who(),
    activatedAt: at(),
    activatedBy: who(),
    suspendedAt: at(),
    archivedAt: at(),
    archivedCoApprovedBy: who(),
    ...timestamps,
  })
  .meta({ id: 'Supplier', description: 'A supplier card; `status` stays `draft` until activation, a submitted draft has `submittedAt`.' });

export const SupplierContact = z
  .object({
    id: z.uuid(),
    supplierId: z.uuid(),
    fullName: z.string(),
    position: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    isPrimary: z.boolean(),
    ...timestamps,
  })
  .meta({ id: 'SupplierContact' });

export const SupplierBankAccount = z
  .object({
    id: z.uuid(),
    supplierId: z.uuid(),
    bankName: z.string(),
    bik: z.string().nullable(),
    iban: z.string(),
    bk: z.string().nullable(),
    currency: z.string(),
    isPrimary: z.boolean(),
    ...timestamps,
  })
  .meta({ id: 'SupplierBankAccount' });

export type SupplierData = z.output<typeof Supplier>;
export type SupplierContactData = z.output<typeof SupplierContact>;
export type SupplierBankAccountData = z.output<typeof SupplierBankAccount>;
