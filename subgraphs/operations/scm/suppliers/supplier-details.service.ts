import type { EntityManager } from '@mikro-orm/postgresql';
import type { BodyOf } from '../../../../contracts/operation.js';
import type {
  scmCreateSupplierBankAccount,
  scmCreateSupplierContact,
  scmUpdateSupplierBankAccount,
} from '../../../../contracts/operations/scm/supplier-details.contract.js';
import {
  SupplierBankAccount,
  SupplierContact,
  type SupplierBankAccountData,
  type SupplierContactData,
} from '../../../../contracts/operations/scm/supplier-types.js';
import { cursorList } from '../../core/cursor-list.js';
import { publishEvent } from '../../core/events.js';
import type { Principal } from '../../core/principal.js';
import { recordMapper } from '../../core/rows.js';
import { requireState } from '../../core/state-machine.js';
import { supplierMachine } from '../machines.js';
import { ScmError } from '../scm.errors.js';
import type { SupplierService } from './supplier.service.js';

/** A supplier's child records of which at most one is primary. */
interface PrimaryChildren<T> {
  readonly entity: string;
  readonly table: string;
  readonly map: (row: Record<string, unknown>) => T;
}

const CONTACTS: PrimaryChildren<SupplierContactData> = {
  entity: 'Supplier contact',
  table: '"operations"."supplier_contact"',
  map: recordMapper(SupplierContact),
};
const ACCOUNTS: PrimaryChildren<SupplierBankAccountData> = {
  entity: 'Supplier bank account',
  table: '"operations"."supplier_bank_account"',
  map: recordMapper(SupplierBankAccount),
};

/** Bank details a change may set; `null` clears a nullable one, absent leaves it. */
export type BankDetails = Omit<BodyOf<typeof scmUpdateSupplierBankAccount>, 'reason'>;

const DETAIL_COLUMNS = { iban: 'iban', bankName: 'bank_name', bik: 'bik', bk: 'bk', currency: 'currency' } as const;

/**
 * Contacts and bank accounts. Every change locks the supplier row first, so concurrent
 * switches of the primary queue up instead of failing; the partial unique index keeps one
 * primary whatever a caller does.
 */
export class SupplierDetailsService {
  constructor(private readonly suppliers: SupplierService) {}

  listContacts(em: EntityManager, supplierId: string, page: { cursor?: string; limit: number }) {
    return this.list(em, CONTACTS, supplierId, page);
  }

  listAccounts(em: EntityManager, supplierId: string, page: { cursor?: string; limit: number }) {
    return this.list(em, ACCOUNTS, supplierId, page);
  }

  async createContact(em: EntityManager, supplierId: string, input: BodyOf<typeof scmCreateSupplierContact>): Promise<SupplierContactData> {
    await this.editable(em, supplierId);
    // raw SQL: the supplier's first contact becomes primary in the insert itself.
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `insert into ${CONTACTS.table} ("supplier_id", "full_name", "position", "phone", "email", "is_primary")
       values (?, ?, ?, ?, ?, not exists (select 1 from ${CONTACTS.table} where "supplier_id" = ? and "is_primary")) returning *`,
      [supplierId, input.fullName, input.position ?? null, input.phone ?? null, input.email ?? null, supplierId],
    );
    return CONTACTS.map(row!);
  }

  async createAccount(
    em: EntityManager,
    supplierId: string,
    input: BodyOf<typeof scmCreateSupplierBankAccount>,
  ): Promise<SupplierBankAccountData> {
    await this.editable(em, supplierId);
    // raw SQL: the supplier's first account becomes primary in the insert itself.
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `insert into ${ACCOUNTS.table} ("supplier_id", "bank_name", "iban", "bik", "bk", "currency", "is_primary")
       values (?, ?, ?, ?, ?, ?, not exists (select 1 from ${ACCOUNTS.table} where "supplier_id" = ? and "is_primary")) returning *`,
      [supplierId, input.bankName, input.iban, input.bik ?? null, input.bk ?? null, input.currency, supplierId],
    );
    return ACCOUNTS.map(row!);
  }

  setPrimaryContact(em: EntityManager, supplierId: string, contactId: string): Promise<SupplierContactData> {
    return this.setPrimary(em, CONTACTS, supplierId, contactId);
  }

  setPrimaryAccount(em: EntityManager, supplierId: string, accountId: string): Promise<SupplierBankAccountData> {
    return this.setPrimary(em, ACCOUNTS, supplierId, accountId);
  }

  /**
   * Changes the details that differ, with the reason, in one update: the audit trigger
   * records each changed field, and `scm.supplier.updated` names them. Nothing differing,
   * nothing is written.
   */
  async updateAccount(
    em: EntityManager,
    caller: Principal,
    supplierId: string,
    accountId: string,
    input: BodyOf<typeof scmUpdateSupplierBankAccount>,
  ): Promise<SupplierBankAccountData> {
    await this.editable(em, supplierId);
    const current = await this.child(em, ACCOUNTS, supplierId, accountId);
    const changed = (Object.keys(DETAIL_COLUMNS) as Array<keyof BankDetails>).filter(
      (field) => input[field] !== undefined && input[field] !== (current[DETAIL_COLUMNS[field]] ?? null),
    );
    if (changed.length === 0) return ACCOUNTS.map(current);
    // raw SQL: only the changed columns written, as the account's children helpers read them (rows).
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `update ${ACCOUNTS.table} set ${changed.map((field) => `"${DETAIL_COLUMNS[field]}" = ?`).join(', ')}, "change_reason" = ?, "updated_at" = now()
       where "id" = ? returning *`,
      [...changed.map((field) => input[field]), input.reason, accountId],
    );
    await publishEvent(em, {
      type: 'scm.supplier.updated',
      organizationId: caller.organizationId,
      payload: { supplierId, bankAccountId: accountId, changedFields: changed, reason: input.reason, actorId: caller.userId },
    });
    return ACCOUNTS.map(row!);
  }

  private async list<T>(em: EntityManager, kind: PrimaryChildren<T>, supplierId: string, page: { cursor?: string; limit: number }) {
    await this.suppliers.row(em, supplierId);
    // Primary first: ordering by the negated flag keeps the keyset cursor on one column.
    return cursorList(
      em,
      {
        table: `(select *, not "is_primary" as "rank" from ${kind.table})`,
        owner: { supplier_id: supplierId },
        orderBy: 'rank',
      },
      page,
      kind.map,
    );
  }

  /** Locks the supplier for the rest of the transaction; an archived one keeps its details as they were. */
  private async editable(em: EntityManager, supplierId: string): Promise<void> {
    const supplier = await this.suppliers.row(em, supplierId, true);
    requireState(supplierMachine, 'changing its details', supplier.stage === 'submitted' ? 'draft' : supplier.stage);
  }

  private async child(em: EntityManager, kind: PrimaryChildren<unknown>, supplierId: string, id: string) {
    // raw SQL: one reader for both child tables (contacts and accounts).
    const [row] = await em.execute<Array<Record<string, unknown>>>(`select * from ${kind.table} where "id" = ? and "supplier_id" = ?`, [
      id,
      supplierId,
    ]);
    if (!row) throw ScmError.notFound(kind.entity);
    return row;
  }

  /** The previous primary cleared, then this one set: two statements in the caller's transaction, under the supplier's lock. */
  private async setPrimary<T>(em: EntityManager, kind: PrimaryChildren<T>, supplierId: string, id: string): Promise<T> {
    await this.editable(em, supplierId);
    const current = await this.child(em, kind, supplierId, id);
    if (current.is_primary) return kind.map(current);
    // raw SQL: both child tables; the old primary cleared before the new one is set (a unique index holds one).
    await em.execute(`update ${kind.table} set "is_primary" = false, "updated_at" = now() where "supplier_id" = ? and "is_primary"`, [
      supplierId,
    ]);
    // raw SQL: either child table, named by the caller.
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `update ${kind.table} set "is_primary" = true, "updated_at" = now() where "id" = ? returning *`,
      [id],
    );
    return kind.map(row!);
  }
}
