import { z } from 'zod';
import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { cursorPaging, ops } from '../fields.js';
import { kz } from './kz-identifiers.js';
import { SUPPLIER_KEEPERS, SUPPLIER_READERS } from './roles.js';
import { SupplierBankAccount, SupplierContact } from './supplier-types.js';
import { reasonText } from './texts.js';

/**
 * A supplier's contacts and bank accounts. At most one of each is primary, guaranteed by
 * a partial unique index; a switch clears the previous primary and sets the new one in one
 * transaction. Creating and listing are our design (docs/adr/0012).
 */

const base = { service: 'operations', tags: ['scm: suppliers'] } as const;
const PATH = '/api/v1/scm/suppliers/:id';
const objectFree = { objectScope: false } as const;
const NOT_FOUND = [OperationsErrorCode.RECORD_NOT_FOUND];
/** Changes to an archived supplier's details answer 409. */
const CHANGE_ERRORS = [...NOT_FOUND, OperationsErrorCode.STATE_CONFLICT];

const bik = () =>
  z
    .string()
    .length(8)
    .nullable()
    .meta({ description: 'Bank identifier code: 8 characters, or null.', examples: ['CASPKZKA'] });
const bk = () =>
  z
    .string()
    .length(2)
    .nullable()
    .meta({ description: 'Beneficiary code: 2 characters, or null.', examples: ['17'] });

export const scmListSupplierContacts = defineOperation({
  ...base,
  name: 'scmListSupplierContacts',
  kind: 'query',
  summary: 'Contacts of a supplier',
  description: 'The primary contact first.',
  access: members(SUPPLIER_READERS, objectFree),
  input: { path: { id: ops.id() } },
  output: SupplierContact,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: `${PATH}/contacts` },
  errors: NOT_FOUND,
});

export const scmCreateSupplierContact = defineOperation({
  ...base,
  name: 'scmCreateSupplierContact',
  kind: 'mutation',
  summary: 'Add a contact to a supplier',
  description: 'A supplier’s first contact becomes its primary one.',
  access: members(SUPPLIER_KEEPERS, objectFree),
  idempotency: 'required',
  input: {
    path: { id: ops.id() },
    body: {
      fullName: ops.text(1, 200),
      position: ops.text(1, 200).nullable().optional(),
      phone: z
        .string()
        .regex(/^\+?[0-9 ()-]{5,50}$/, { error: 'must be digits, spaces, brackets or hyphens, 5 to 50' })
        .nullable()
        .optional(),
      email: z.email().max(254).nullable().optional(),
    },
  },
  output: SupplierContact,
  rest: { method: 'POST', path: `${PATH}/contacts`, status: 201 },
  errors: CHANGE_ERRORS,
});

export const scmSetPrimarySupplierContact = defineOperation({
  ...base,
  name: 'scmSetPrimarySupplierContact',
  kind: 'mutation',
  summary: 'Make a contact the supplier’s primary one',
  description: 'The previous primary is cleared and this one set in one transaction.',
  access: members(SUPPLIER_KEEPERS, objectFree),
  idempotency: 'required',
  input: { path: { id: ops.id(), contactId: ops.id() } },
  output: SupplierContact,
  rest: { method: 'POST', path: `${PATH}/contacts/:contactId/primary` },
  errors: CHANGE_ERRORS,
});

export const scmListSupplierBankAccounts = defineOperation({
  ...base,
  name: 'scmListSupplierBankAccounts',
  kind: 'query',
  summary: 'Bank accounts of a supplier',
  description: 'The primary account first.',
  access: members(SUPPLIER_READERS, objectFree),
  input: { path: { id: ops.id() } },
  output: SupplierBankAccount,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: `${PATH}/bank-accounts` },
  errors: NOT_FOUND,
});

export const scmCreateSupplierBankAccount = defineOperation({
  ...base,
  name: 'scmCreateSupplierBankAccount',
  kind: 'mutation',
  summary: 'Add a bank account to a supplier',
  description: 'A supplier’s first account becomes its primary one.',
  access: members(SUPPLIER_KEEPERS, objectFree),
  idempotency: 'required',
  input: {
    path: { id: ops.id() },
    body: {
      bankName: ops.text(1, 200),
      bik: bik().optional(),
      iban: kz.iban(),
      bk: bk().optional(),
      currency: kz.currency().default('KZT'),
    },
  },
  output: SupplierBankAccount,
  rest: { method: 'POST', path: `${PATH}/bank-accounts`, status: 201 },
  errors: CHANGE_ERRORS,
});

export const scmUpdateSupplierBankAccount = defineOperation({
  ...base,
  name: 'scmUpdateSupplierBankAccount',
  kind: 'mutation',
  summary: 'Change bank account details',
  description:
    'Fields left out stay as they are; `reason` is required. Every changed field is written to the audit log (entity `SupplierBankAccount`) with the reason, and `scm.supplier.updated` is published.',
  access: members(SUPPLIER_KEEPERS, objectFree),
  input: {
    path: { id: ops.id(), bankId: ops.id() },
    body: {
      iban: kz.iban().optional(),
      bankName: ops.text(1, 200).optional(),
      bik: bik().optional(),
      bk: bk().optional(),
      currency: kz.currency().optional(),
      reason: reasonText(10, 1000, 'The supplier moved its account to another bank'),
    },
  },
  output: SupplierBankAccount,
  rest: { method: 'PATCH', path: `${PATH}/bank-accounts/:bankId` },
  errors: CHANGE_ERRORS,
});

export const scmSetPrimarySupplierBankAccount = defineOperation({
  ...base,
  name: 'scmSetPrimarySupplierBankAccount',
  kind: 'mutation',
  summary: 'Make a bank account the supplier’s primary one',
  description: 'The previous primary is cleared and this one set in one transaction.',
  access: members(SUPPLIER_KEEPERS, objectFree),
  idempotency: 'required',
  input: { path: { id: ops.id(), bankId: ops.id() } },
  output: SupplierBankAccount,
  rest: { method: 'POST', path: `${PATH}/bank-accounts/:bankId/primary` },
  errors: CHANGE_ERRORS,
});

export const SUPPLIER_DETAIL_CONTRACTS = [
  scmListSupplierContacts,
  scmCreateSupplierContact,
  scmSetPrimarySupplierContact,
  scmListSupplierBankAccounts,
  scmCreateSupplierBankAccount,
  scmUpdateSupplierBankAccount,
  scmSetPrimarySupplierBankAccount,
];
