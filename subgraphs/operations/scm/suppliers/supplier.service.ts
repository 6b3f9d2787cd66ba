import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BodyOf, ContractInput } from '../../../../contracts/operation.js';
import type {
  scmArchiveSupplier,
  scmCreateSupplier,
  scmListSuppliers,
  scmSuspendSupplier,
} from '../../../../contracts/operations/scm/suppliers.contract.js';
import { ARCHIVE_CO_APPROVERS } from '../../../../contracts/operations/scm/roles.js';
import { Supplier, type SupplierData } from '../../../../contracts/operations/scm/supplier-types.js';
import { cursorList } from '../../core/cursor-list.js';
import type { Principal } from '../../core/principal.js';
import { recordMapper } from '../../core/rows.js';
import { AppUserEntity } from '../../iam/app-user.entity.js';
import { transition } from '../../core/state-machine.js';
import { supplierMachine } from '../machines.js';
import { arrayLiteral, violatedUnique } from '../pg-values.js';
import { ScmError } from '../scm.errors.js';
import { type Supplier as SupplierRow, SupplierEntity } from './supplier.entity.js';

const TABLE = '"operations"."supplier"';
export const toSupplier = recordMapper<SupplierData>(Supplier);

export type NewSupplier = ContractInput<typeof scmCreateSupplier>;

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** Supplier cards and their lifecycle; every move is one conditional update (the state machine). */
export class SupplierService {
  async create(em: EntityManager, caller: Principal, input: NewSupplier): Promise<SupplierData> {
    if (!input.bin && !input.iin) throw ScmError.invalid('bin', 'give a BIN or an IIN');
    try {
      // raw SQL: the categories bound as one escaped array literal (any text, quotes and backslashes included).
      const [row] = await em.execute<Array<Record<string, unknown>>>(
        `insert into ${TABLE} ("bin", "iin", "legal_name", "short_name", "legal_address", "legal_form_code", "country_code", "categories", "created_by")
         values (?, ?, ?, ?, ?, ?, ?, ?::text[], ?) returning *`,
        [
          input.bin ?? null,
          input.iin ?? null,
          input.legalName,
          input.shortName ?? null,
          input.legalAddress ?? null,
          input.legalFormCode ?? null,
          input.countryCode,
          arrayLiteral([...new Set(input.categories)]),
          caller.userId,
        ],
      );
      return toSupplier(row!);
    } catch (error) {
      const index = violatedUnique(error);
      if (index !== undefined) throw ScmError.taxIdTaken(index.includes('iin') ? 'iin' : 'bin');
      throw error;
    }
  }

  async list(em: EntityManager, input: ContractInput<typeof scmListSuppliers>) {
    const where: string[] = [];
    const params: unknown[] = [];
    if (input.status) {
      where.push(`"status" = ?`);
      params.push(input.status);
    }
    if (input.q) {
      where.push(`("legal_name" ilike ? or "short_name" ilike ? or "bin" like ? or "iin" like ?)`);
      const pattern = likePattern(input.q);
      params.push(pattern, pattern, pattern, pattern);
    }
    return cursorList(em, { table: TABLE, where, params, orderBy: 'legal_name' }, input, toSupplier);
  }

  async get(em: EntityManager, id: string): Promise<SupplierData> {
    return toSupplier(await this.row(em, id));
  }

  /** The supplier row, locked for the rest of the transaction when `lock` (contacts and accounts change under it). */
  async row(em: EntityManager, id: string, lock = false): Promise<SupplierRow> {
    const supplier = await em.findOne(SupplierEntity, id, { refresh: true, ...(lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}) });
    if (!supplier) throw ScmError.notFound('Supplier');
    return supplier;
  }

  async submit(em: EntityManager, caller: Principal, id: string): Promise<SupplierData> {
    const row = await transition(em, supplierMachine, 'submit', id, {
      set: { submitted_by: caller.userId },
      setSql: { submitted_at: 'now()' },
    });
    return toSupplier(row);
  }

  async activate(em: EntityManager, caller: Principal, id: string): Promise<SupplierData> {
    const row = await transition(em, supplierMachine, 'activate', id, {
      set: { activated_by: caller.userId },
      setSql: { activated_at: 'now()' },
    });
    return toSupplier(row);
  }

  async suspend(em: EntityManager, id: string, input: BodyOf<typeof scmSuspendSupplier>): Promise<SupplierData> {
    const row = await transition(em, supplierMachine, 'suspend', id, {
      set: { suspended_reason: input.suspendedReason, suspended_reason_text: input.suspendedReasonText },
      setSql: { suspended_at: 'now()' },
    });
    return toSupplier(row);
  }

  async unblock(em: EntityManager, id: string, reason: string): Promise<SupplierData> {
    const row = await transition(em, supplierMachine, 'unblock', id, {
      set: { unblock_reason: reason, suspended_reason: null, suspended_reason_text: null },
      setSql: { unblocked_at: 'now()' },
    });
    return toSupplier(row);
  }

  /**
   * Archives; an active or suspended supplier needs a second approver. Without one only the
   * draft stages may move, so a supplier activated meanwhile answers 409 rather than slipping through.
   */
  async archive(em: EntityManager, caller: Principal, id: string, input: BodyOf<typeof scmArchiveSupplier>): Promise<SupplierData> {
    const current = await this.row(em, id);
    const coApprover = input.coApprovedBy ?? null;
    if (!coApprover && (current.stage === 'active' || current.stage === 'suspended')) throw ScmError.coApproverRequired();
    if (coApprover) await this.checkCoApprover(em, caller, coApprover);
    const row = await transition(em, supplierMachine, coApprover ? 'archiveApproved' : 'archive', id, {
      set: { archived_reason: input.archivedReason, archived_co_approved_by: coApprover },
      setSql: { archived_at: 'now()' },
    });
    return toSupplier(row);
  }

  private async checkCoApprover(em: EntityManager, caller: Principal, userId: string): Promise<void> {
    if (userId === caller.userId) throw ScmError.coApproverInvalid('must be someone other than the actor');
    const holders =
      caller.organizationId === null
        ? 0
        : await em.count(AppUserEntity, {
            id: userId,
            organizationId: caller.organizationId,
            active: true,
            roles: { $overlap: [...ARCHIVE_CO_APPROVERS] },
          });
    if (holders === 0) throw ScmError.coApproverInvalid(`must be an active ${ARCHIVE_CO_APPROVERS.join(' or ')} of the organization`);
  }
}
