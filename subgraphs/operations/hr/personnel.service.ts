import { sql } from '@mikro-orm/core';
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
import { requireState } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { HrError } from './hr.errors.js';
import { PersonnelEntity, PersonnelTransferEntity } from './personnel.entity.js';
import { personnelStates } from './machines.js';
import { BrigadeEntity } from './brigade.entity.js';
import { BRIGADE, isUniqueViolation, lockPersonnel, MEMBERSHIP, PERSONNEL, requireObject, requirePosition } from './references.js';

/** Personnel: hiring, the card and the list, corrections, transfers between production objects. */

export const personnelRecord = recordMapper<PersonnelData>(Personnel);

export type HireInput = ContractInput<typeof hrHirePersonnel>;
export type PersonnelPatch = BodyOf<typeof hrUpdatePersonnel>;
export type PersonnelFilter = ContractInput<typeof hrListPersonnel>;

/** An empty optional text is no value. */
const orNull = (value: string | null | undefined) => (value ? value : null);

export class PersonnelService {
  async hire(em: EntityManager, principal: Principal, input: HireInput): Promise<PersonnelData> {
    await requirePosition(em, input.positionId);
    if (input.objectId) await requireObject(em, input.objectId, 'objectId');
    const person = em.create(PersonnelEntity, {
      organizationId: principal.organizationId!,
      fullName: input.fullName,
      tabNumber: input.tabNumber,
      birthDate: input.birthDate ?? null,
      positionId: input.positionId,
      objectId: input.objectId ?? null,
      phone: orNull(input.phone),
      email: orNull(input.email),
      hiredAt: input.hiredAt,
    });
    await this.uniqueTab(em, input.tabNumber);
    return personnelRecord(person);
  }

  async get(em: EntityManager, id: string): Promise<PersonnelData> {
    const person = await em.findOne(PersonnelEntity, id);
    if (!person) throw OperationsError.notFound('Personnel');
    return personnelRecord(person);
  }

  list(em: EntityManager, filter: PersonnelFilter) {
    const equals = { object_id: filter.objectId, status: filter.status, position_id: filter.positionId };
    return cursorList(em, { table: PERSONNEL, equals, orderBy: 'full_name' }, filter, personnelRecord);
  }

  async update(em: EntityManager, id: string, patch: PersonnelPatch): Promise<PersonnelData> {
    const person = await lockPersonnel(em, id);
    if (!person) throw OperationsError.notFound('Personnel');
    if (patch.positionId) await requirePosition(em, patch.positionId);
    const { phone, email, ...rest } = patch;
    em.assign(person, {
      ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
      ...(phone !== undefined ? { phone: orNull(phone) } : {}),
      ...(email !== undefined ? { email: orNull(email) } : {}),
    });
    await this.uniqueTab(em, patch.tabNumber ?? '');
    return personnelRecord(person);
  }

  /**
   * Moves the employee to another object, recording the transfer; their active membership
   * in a brigade of another object is closed and they stop leading brigades elsewhere.
   */
  async transfer(em: EntityManager, principal: Principal, input: ContractInput<typeof hrTransferPersonnel>): Promise<PersonnelData> {
    const person = await lockPersonnel(em, input.id);
    if (!person) throw OperationsError.notFound('Personnel');
    requireState(personnelStates, 'transfer', person.status);
    await requireObject(em, input.toObjectId, 'toObjectId');
    if (person.objectId === input.toObjectId) throw HrError.sameObject();
    const effectiveFrom = input.effectiveFrom ?? today();
    em.create(PersonnelTransferEntity, {
      organizationId: principal.organizationId!,
      personnelId: input.id,
      fromObjectId: person.objectId ?? null,
      toObjectId: input.toObjectId,
      reason: input.reason,
      effectiveFrom,
    });
    await em.flush();
    // raw SQL: bulk update joined with the brigade (every open membership at another object).
    await em.execute(
      `update ${MEMBERSHIP} m set "to_date" = greatest(m."from_date", ?::date), "updated_at" = now()
       from ${BRIGADE} b where b."id" = m."brigade_id" and m."personnel_id" = ? and m."to_date" is null and b."object_id" <> ?`,
      [effectiveFrom, input.id, input.toObjectId],
    );
    await em.nativeUpdate(
      BrigadeEntity,
      { brigadierId: input.id, status: 'active', objectId: { $ne: input.toObjectId } },
      { brigadierId: null, updatedAt: sql<Date>`now()` },
    );
    person.objectId = input.toObjectId;
    await em.flush();
    return personnelRecord(person);
  }

  /** Writes the pending changes, which may take a personnel number another employee holds. */
  private async uniqueTab(em: EntityManager, tabNumber: string): Promise<void> {
    try {
      await em.flush();
    } catch (error) {
      if (isUniqueViolation(error)) throw HrError.tabNumberTaken(tabNumber);
      throw error;
    }
  }
}
