import {
  scmActivateSupplier,
  scmArchiveSupplier,
  scmCreateSupplier,
  scmGetSupplier,
  scmListSuppliers,
  scmSubmitSupplier,
  scmSuspendSupplier,
  scmUnblockSupplier,
} from '../../../../contracts/operations/scm/suppliers.contract.js';
import {
  scmCreateSupplierBankAccount,
  scmCreateSupplierContact,
  scmListSupplierBankAccounts,
  scmListSupplierContacts,
  scmSetPrimarySupplierBankAccount,
  scmSetPrimarySupplierContact,
  scmUpdateSupplierBankAccount,
} from '../../../../contracts/operations/scm/supplier-details.contract.js';
import { implement, type Implementation } from '../../../shared/contracts/implementation.js';
import type { Services } from '../../../shared/subgraph.js';
import { SupplierDetailsService } from './supplier-details.service.js';
import { SupplierService } from './supplier.service.js';

/** Supplier operations bound to their services. */
export function supplierOperations(services: Services): Implementation[] {
  const suppliers = services.get(SupplierService);
  const details = services.get(SupplierDetailsService);
  return [
    implement(scmCreateSupplier, (input, { ctx, caller }) => suppliers.create(ctx.em, caller, input)),
    implement(scmListSuppliers, (input, { ctx }) => suppliers.list(ctx.em, input)),
    implement(scmGetSupplier, (input, { ctx }) => suppliers.get(ctx.em, input.id)),
    implement(scmSubmitSupplier, (input, { ctx, caller }) => suppliers.submit(ctx.em, caller, input.id)),
    implement(scmActivateSupplier, (input, { ctx, caller }) => suppliers.activate(ctx.em, caller, input.id)),
    implement(scmSuspendSupplier, (input, { ctx }) => suppliers.suspend(ctx.em, input.id, input)),
    implement(scmUnblockSupplier, (input, { ctx }) => suppliers.unblock(ctx.em, input.id, input.reason)),
    implement(scmArchiveSupplier, (input, { ctx, caller }) => suppliers.archive(ctx.em, caller, input.id, input)),
    implement(scmListSupplierContacts, (input, { ctx }) => details.listContacts(ctx.em, input.id, input)),
    implement(scmCreateSupplierContact, (input, { ctx }) => details.createContact(ctx.em, input.id, input)),
    implement(scmSetPrimarySupplierContact, (input, { ctx }) => details.setPrimaryContact(ctx.em, input.id, input.contactId)),
    implement(scmListSupplierBankAccounts, (input, { ctx }) => details.listAccounts(ctx.em, input.id, input)),
    implement(scmCreateSupplierBankAccount, (input, { ctx }) => details.createAccount(ctx.em, input.id, input)),
    implement(scmUpdateSupplierBankAccount, (input, { ctx, caller }) =>
      details.updateAccount(ctx.em, caller, input.id, input.bankId, input),
    ),
    implement(scmSetPrimarySupplierBankAccount, (input, { ctx }) => details.setPrimaryAccount(ctx.em, input.id, input.bankId)),
  ];
}
