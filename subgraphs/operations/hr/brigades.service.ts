import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type {
  hrAddBrigadeMember,
  hrCreateBrigade,
  hrListBrigades,
  hrUpdateBrigade,
} from '../../../contracts/operations/hr/brigades.contract.js';
import { Brigade, type BrigadeData, BrigadeMembership, type BrigadeMembershipData, today } from '../../../contracts/operations/hr/types.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { defineStateMachine, requireState, transition } from '../core/state-machine.js';
import type { TrashEntity } from '../core/trash.service.js';
import { OperationsError } from '../operations.errors.js';
import { BrigadeEntity, BrigadeMembershipEntity } from './brigade.entity.js';
import { HrError } from './hr.errors.js';
import { BRIGADE, brigadeForShare, lockBrigade, MEMBERSHIP, requireAssignable, requireObject } from './references.js';

/** Brigades and their memberships; who sees which brigade is row-level security's (object scope). */

const brigadeRecord = recordMapper<BrigadeData>(Brigade);
const membershipRecord = recordMapper<BrigadeMembershipData>(BrigadeMembership);

/** Brigades go to the trash and come back from it (seed 002, Trash); they have no business key. */
export const brigadeTrash: TrashEntity = { slug: 'brigades', entity: 'Brigade', table: BRIGADE };

/** The seed's Brigade row of States and transitions. */
export const brigadeStates = defineStateMachine<'active' | 'inactive', 'disband', 'update' | 'add member'>({
  entity: 'Brigade',
  table: BRIGADE,
  column: 'status',
  transitions: { disband: { from: ['active'], to: 'inactive' } },
  requires: { update: ['active'], 'add member': ['active'] },
});

export type BrigadeFilter = ContractInput<typeof hrListBrigades>;

export class BrigadesService {
  async create(em: EntityManager, principal: Principal, input: ContractInput<typeof hrCreateBrigade>): Promise<BrigadeData> {
    await requireObject(em, input.objectId, 'objectId');
    if (input.brigadierId) await requireAssignable(em, input.brigadierId, 'brigadierId', input.objectId);
    const brigade = em.create(BrigadeEntity, {
      organizationId: principal.organizationId!,
      name: input.name,
      objectId: input.objectId,
      workType: input.workType,
      brigadierId: input.brigadierId ?? null,
    });
    await em.flush();
    return brigadeRecord(brigade);
  }

  async get(em: EntityManager, id: string): Promise<BrigadeData> {
    return brigadeRecord(await this.brigade(em, id));
  }

  list(em: EntityManager, filter: BrigadeFilter) {
    const where = [`"deleted_at" is null`, `"is_active" = ?`];
    const params: unknown[] = [filter.isActive];
    if (filter.objectId) {
      where.push(`"object_id" = ?`);
      params.push(filter.objectId);
    }
    if (filter.workType) {
      where.push(`"work_type" = ?`);
      params.push(filter.workType);
    }
    return cursorList(em, { table: BRIGADE, where, params, orderBy: 'name' }, filter, brigadeRecord);
  }

  /** Name, work type and brigadier of an active brigade. */
  async update(em: EntityManager, input: ContractInput<typeof hrUpdateBrigade>): Promise<BrigadeData> {
    const brigade = await lockBrigade(em, input.id);
    requireState(brigadeStates, 'update', brigade.status);
    if (input.brigadierId) await requireAssignable(em, input.brigadierId, 'brigadierId', brigade.objectId);
    if (input.name !== undefined) brigade.name = input.name;
    if (input.workType !== undefined) brigade.workType = input.workType;
    if (input.brigadierId !== undefined) brigade.brigadierId = input.brigadierId;
    await em.flush();
    return brigadeRecord(brigade);
  }

  async roster(em: EntityManager, id: string): Promise<BrigadeMembershipData[]> {
    await this.brigade(em, id);
    const members = await em.find(BrigadeMembershipEntity, { brigadeId: id, toDate: null }, { orderBy: { fromDate: 'asc', id: 'asc' } });
    return members.map(membershipRecord);
  }

  /**
   * The employee joins the brigade; an active membership elsewhere ends the day this one
   * begins. The employee's row is locked, so concurrent calls for one employee queue up,
   * and the partial unique index holds at most one active membership whatever happens.
   */
  async addMember(
    em: EntityManager,
    principal: Principal,
    input: ContractInput<typeof hrAddBrigadeMember>,
  ): Promise<BrigadeMembershipData> {
    const brigade = await brigadeForShare(em, input.id);
    requireState(brigadeStates, 'add member', brigade.status);
    await requireAssignable(em, input.personnelId, 'personnelId', brigade.objectId);
    const fromDate = input.fromDate ?? today();
    const current = await em.findOne(BrigadeMembershipEntity, { personnelId: input.personnelId, toDate: null }, { refresh: true });
    if (current?.brigadeId === brigade.id) throw HrError.alreadyMember();
    if (current && fromDate < current.fromDate) {
      throw HrError.dateOrder('fromDate', `fromDate comes before the start of the current membership (${current.fromDate}).`);
    }
    if (current) {
      // Closed before the new one is written: one open membership per employee (a unique index).
      current.toDate = fromDate;
      await em.flush();
    }
    const membership = em.create(BrigadeMembershipEntity, {
      organizationId: principal.organizationId!,
      brigadeId: brigade.id,
      personnelId: input.personnelId,
      fromDate,
    });
    await em.flush();
    return membershipRecord(membership);
  }

  /** Deactivates the brigade and closes every active membership as of today, in one transaction. */
  async disband(em: EntityManager, id: string): Promise<BrigadeData> {
    await lockBrigade(em, id);
    const row = await transition(em, brigadeStates, 'disband', id, { setSql: { disbanded_at: 'now()' } });
    // raw SQL: bulk update of every open membership, each closed no earlier than it began.
    await em.execute(
      `update ${MEMBERSHIP} set "to_date" = greatest("from_date", ?::date), "updated_at" = now() where "brigade_id" = ? and "to_date" is null`,
      [today(), id],
    );
    return brigadeRecord(row);
  }

  /**
   * Moves the brigade to the trash, only while it has no active members: a membership in a
   * brigade nobody can see would be an assignment nobody can close. The row lock keeps a
   * concurrent member addition (which shares it) from slipping in.
   */
  async softDelete(em: EntityManager, id: string): Promise<{ id: string; deletedAt: string }> {
    const brigade = await lockBrigade(em, id);
    const active = await em.count(BrigadeMembershipEntity, { brigadeId: id, toDate: null });
    if (active > 0) throw HrError.brigadeHasMembers(active);
    brigade.deletedAt = new Date();
    await em.flush();
    return { id, deletedAt: brigade.deletedAt.toISOString() };
  }

  private async brigade(em: EntityManager, id: string) {
    const brigade = await em.findOne(BrigadeEntity, { id, deletedAt: null });
    if (!brigade) throw OperationsError.notFound('Brigade');
    return brigade;
  }
}
