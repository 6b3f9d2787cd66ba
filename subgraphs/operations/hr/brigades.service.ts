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
import { defineStateMachine, transition } from '../core/state-machine.js';
import type { TrashEntity } from '../core/trash.service.js';
import { OperationsError } from '../operations.errors.js';
import { HrError } from './hr.errors.js';
import { BRIGADE, brigadeForShare, type BrigadeRow, MEMBERSHIP, requireAssignable, requireObject } from './references.js';

/** Brigades and their memberships; who sees which brigade is row-level security's (object scope). */

const brigadeRecord = recordMapper<BrigadeData>(Brigade);
const membershipRecord = recordMapper<BrigadeMembershipData>(BrigadeMembership);

/** Brigades go to the trash and come back from it (seed 002, Trash); they have no business key. */
export const brigadeTrash: TrashEntity = { slug: 'brigades', entity: 'Brigade', table: BRIGADE };

/** The seed's Brigade row of States and transitions. */
export const brigadeStates = defineStateMachine<'active' | 'inactive', 'disband'>({
  entity: 'Brigade',
  table: BRIGADE,
  column: 'status',
  transitions: { disband: { from: ['active'], to: 'inactive' } },
});

export type BrigadeFilter = ContractInput<typeof hrListBrigades>;

export class BrigadesService {
  async create(em: EntityManager, principal: Principal, input: ContractInput<typeof hrCreateBrigade>): Promise<BrigadeData> {
    await requireObject(em, input.objectId, 'objectId');
    if (input.brigadierId) await requireAssignable(em, input.brigadierId, 'brigadierId', input.objectId);
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `insert into ${BRIGADE} ("organization_id", "name", "object_id", "work_type", "brigadier_id") values (?, ?, ?, ?, ?) returning *`,
      [principal.organizationId, input.name, input.objectId, input.workType, input.brigadierId ?? null],
    );
    return brigadeRecord(row!);
  }

  async get(em: EntityManager, id: string): Promise<BrigadeData> {
    return brigadeRecord(await this.row(em, id));
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
    const [brigade] = await em.execute<BrigadeRow[]>(`select * from ${BRIGADE} where "id" = ? and "deleted_at" is null for update`, [
      input.id,
    ]);
    if (!brigade) throw OperationsError.notFound('Brigade');
    if (brigade.status !== 'active') throw OperationsError.stateConflict('Brigade', brigade.status, 'update', ['active']);
    if (input.brigadierId) await requireAssignable(em, input.brigadierId, 'brigadierId', brigade.object_id);
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `update ${BRIGADE} set "name" = coalesce(?, "name"), "work_type" = coalesce(?, "work_type"),
         "brigadier_id" = case when ?::boolean then ?::uuid else "brigadier_id" end, "updated_at" = now()
       where "id" = ? returning *`,
      [input.name ?? null, input.workType ?? null, input.brigadierId !== undefined, input.brigadierId ?? null, input.id],
    );
    return brigadeRecord(row!);
  }

  async roster(em: EntityManager, id: string): Promise<BrigadeMembershipData[]> {
    await this.row(em, id);
    const rows = await em.execute<Array<Record<string, unknown>>>(
      `select * from ${MEMBERSHIP} where "brigade_id" = ? and "to_date" is null order by "from_date", "id"`,
      [id],
    );
    return rows.map(membershipRecord);
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
    if (brigade.status !== 'active') throw OperationsError.stateConflict('Brigade', brigade.status, 'add member', ['active']);
    await requireAssignable(em, input.personnelId, 'personnelId', brigade.object_id);
    const fromDate = input.fromDate ?? today();
    const [current] = await em.execute<Array<{ id: string; brigade_id: string; from_date: string }>>(
      `select "id", "brigade_id", "from_date" from ${MEMBERSHIP} where "personnel_id" = ? and "to_date" is null`,
      [input.personnelId],
    );
    if (current?.brigade_id === brigade.id) throw HrError.alreadyMember();
    if (current && fromDate < current.from_date) {
      throw HrError.dateOrder('fromDate', `fromDate comes before the start of the current membership (${current.from_date}).`);
    }
    if (current) {
      await em.execute(`update ${MEMBERSHIP} set "to_date" = ?, "updated_at" = now() where "id" = ?`, [fromDate, current.id]);
    }
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `insert into ${MEMBERSHIP} ("organization_id", "brigade_id", "personnel_id", "from_date") values (?, ?, ?, ?) returning *`,
      [principal.organizationId, brigade.id, input.personnelId, fromDate],
    );
    return membershipRecord(row!);
  }

  /** Deactivates the brigade and closes every active membership as of today, in one transaction. */
  async disband(em: EntityManager, id: string): Promise<BrigadeData> {
    await this.row(em, id, 'for update');
    const row = await transition(em, brigadeStates, 'disband', id, { setSql: { disbanded_at: 'now()' } });
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
    await this.row(em, id, 'for update');
    const [active] = await em.execute<Array<{ count: string }>>(
      `select count(*) as "count" from ${MEMBERSHIP} where "brigade_id" = ? and "to_date" is null`,
      [id],
    );
    if (Number(active!.count) > 0) throw HrError.brigadeHasMembers(Number(active!.count));
    const [deleted] = await em.execute<Array<{ deleted_at: string }>>(
      `update ${BRIGADE} set "deleted_at" = now(), "updated_at" = now() where "id" = ? returning "deleted_at"`,
      [id],
    );
    return { id, deletedAt: new Date(deleted!.deleted_at).toISOString() };
  }

  private async row(em: EntityManager, id: string, lock: '' | 'for update' = ''): Promise<Record<string, unknown>> {
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `select * from ${BRIGADE} where "id" = ? and "deleted_at" is null ${lock}`,
      [id],
    );
    if (!row) throw OperationsError.notFound('Brigade');
    return row;
  }
}
