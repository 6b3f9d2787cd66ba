import type { EntityManager } from '@mikro-orm/postgresql';
import type { BodyOf, ContractInput } from '../../../contracts/operation.js';
import type {
  hrHirePersonnel,
  hrListPersonnel,
  hrTransferPersonnel,
  hrUpdatePersonnel,
} from '../../../contracts/operations/hr/personnel.contract.js';
import { type PersonnelData, Personnel, today } from '../../../contracts/operations/hr/types.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';
import { HrError } from './hr.errors.js';
import { BRIGADE, isUniqueViolation, lockPersonnel, MEMBERSHIP, PERSONNEL, requireObject, requirePosition } from './references.js';

/** Personnel: hiring, the card and the list, corrections, transfers between production objects. */

export const personnelRecord = recordMapper<PersonnelData>(Personnel);

export type HireInput = ContractInput<typeof hrHirePersonnel>;
export type PersonnelPatch = BodyOf<typeof hrUpdatePersonnel>;
export type PersonnelFilter = ContractInput<typeof hrListPersonnel>;

const PATCHABLE = {
  fullName: 'full_name',
  tabNumber: 'tab_number',
  positionId: 'position_id',
  birthDate: 'birth_date',
  phone: 'phone',
  email: 'email',
} as const;

/** An empty optional text is no value. */
const orNull = (value: string | null | undefined) => (value ? value : null);

export class PersonnelService {
  async hire(em: EntityManager, principal: Principal, input: HireInput): Promise<PersonnelData> {
    await requirePosition(em, input.positionId);
    if (input.objectId) await requireObject(em, input.objectId, 'objectId');
    const row = await this.uniqueTab(input.tabNumber, () =>
      em.execute<Array<Record<string, unknown>>>(
        `insert into ${PERSONNEL} ("organization_id", "full_name", "tab_number", "birth_date", "position_id", "object_id", "phone", "email", "hired_at")
         values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`,
        [
          principal.organizationId,
          input.fullName,
          input.tabNumber,
          input.birthDate ?? null,
          input.positionId,
          input.objectId ?? null,
          orNull(input.phone),
          orNull(input.email),
          input.hiredAt,
        ],
      ),
    );
    return personnelRecord(row);
  }

  async get(em: EntityManager, id: string): Promise<PersonnelData> {
    const [row] = await em.execute<Array<Record<string, unknown>>>(`select * from ${PERSONNEL} where "id" = ?`, [id]);
    if (!row) throw OperationsError.notFound('Personnel');
    return personnelRecord(row);
  }

  list(em: EntityManager, filter: PersonnelFilter) {
    const equals = { object_id: filter.objectId, status: filter.status, position_id: filter.positionId };
    return cursorList(em, { table: PERSONNEL, equals, orderBy: 'full_name' }, filter, personnelRecord);
  }

  async update(em: EntityManager, id: string, patch: PersonnelPatch): Promise<PersonnelData> {
    if (!(await lockPersonnel(em, id))) throw OperationsError.notFound('Personnel');
    if (patch.positionId) await requirePosition(em, patch.positionId);
    const changes = (Object.entries(PATCHABLE) as Array<[keyof PersonnelPatch, string]>).filter(([field]) => patch[field] !== undefined);
    const row = await this.uniqueTab(patch.tabNumber ?? '', () =>
      em.execute<Array<Record<string, unknown>>>(
        `update ${PERSONNEL} set ${[...changes.map(([, column]) => `"${column}" = ?`), `"updated_at" = now()`].join(', ')}
         where "id" = ? returning *`,
        [...changes.map(([field]) => (field === 'phone' || field === 'email' ? orNull(patch[field]) : patch[field])), id],
      ),
    );
    return personnelRecord(row);
  }

  /**
   * Moves the employee to another object, recording the transfer; their active membership
   * in a brigade of another object is closed and they stop leading brigades elsewhere.
   */
  async transfer(em: EntityManager, principal: Principal, input: ContractInput<typeof hrTransferPersonnel>): Promise<PersonnelData> {
    const person = await lockPersonnel(em, input.id);
    if (!person) throw OperationsError.notFound('Personnel');
    if (person.status === 'terminated') {
      throw OperationsError.stateConflict('Personnel', person.status, 'transfer', ['active', 'onWatch', 'onVacation']);
    }
    await requireObject(em, input.toObjectId, 'toObjectId');
    if (person.object_id === input.toObjectId) throw HrError.sameObject();
    const effectiveFrom = input.effectiveFrom ?? today();
    await em.execute(
      `insert into "operations"."personnel_transfer" ("organization_id", "personnel_id", "from_object_id", "to_object_id", "reason", "effective_from")
       values (?, ?, ?, ?, ?, ?)`,
      [principal.organizationId, input.id, person.object_id, input.toObjectId, input.reason, effectiveFrom],
    );
    await em.execute(
      `update ${MEMBERSHIP} m set "to_date" = greatest(m."from_date", ?::date), "updated_at" = now()
       from ${BRIGADE} b where b."id" = m."brigade_id" and m."personnel_id" = ? and m."to_date" is null and b."object_id" <> ?`,
      [effectiveFrom, input.id, input.toObjectId],
    );
    await em.execute(
      `update ${BRIGADE} set "brigadier_id" = null, "updated_at" = now() where "brigadier_id" = ? and "status" = 'active' and "object_id" <> ?`,
      [input.id, input.toObjectId],
    );
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `update ${PERSONNEL} set "object_id" = ?, "updated_at" = now() where "id" = ? returning *`,
      [input.toObjectId, input.id],
    );
    return personnelRecord(row!);
  }

  /** Runs a write that may take a personnel number another employee holds. */
  private async uniqueTab(tabNumber: string, write: () => Promise<Array<Record<string, unknown>>>): Promise<Record<string, unknown>> {
    try {
      const [row] = await write();
      return row!;
    } catch (error) {
      if (isUniqueViolation(error)) throw HrError.tabNumberTaken(tabNumber);
      throw error;
    }
  }
}
