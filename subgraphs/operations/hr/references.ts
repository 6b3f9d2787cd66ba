import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OperationsError } from '../operations.errors.js';
import { type Brigade, BrigadeEntity } from './brigade.entity.js';
import { HrError } from './hr.errors.js';
import { type Personnel, PersonnelEntity } from './personnel.entity.js';
import { PositionEntity, ProductionObjectEntity } from '../reference-books/reference-book.entity.js';

/**
 * Records of the organization looked up through row-level security, so one of another
 * organization — or, for object-scoped roles, of another production object — is as
 * missing as one that does not exist.
 */

export const PERSONNEL = '"operations"."personnel"';
export const BRIGADE = '"operations"."brigade"';
export const MEMBERSHIP = '"operations"."brigade_membership"';

/** An active position of the positions reference book. */
export async function requirePosition(em: EntityManager, id: string, param = 'positionId'): Promise<void> {
  if ((await em.count(PositionEntity, { id, active: true, deletedAt: null })) === 0) throw HrError.referenceNotFound(param, 'position');
}

/** An active production object the caller may see. */
export async function requireObject(em: EntityManager, id: string, param: string): Promise<void> {
  if ((await em.count(ProductionObjectEntity, { id, active: true, deletedAt: null })) === 0)
    throw HrError.referenceNotFound(param, 'production object');
}

/** The employee, locked for the rest of the transaction (hiring moves, memberships and termination queue up). */
export async function lockPersonnel(em: EntityManager, id: string): Promise<Personnel | null> {
  return em.findOne(PersonnelEntity, id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** An employee the body names who can take an assignment at `objectId`: visible, not terminated, not of another object. */
export async function requireAssignable(em: EntityManager, id: string, param: string, objectId: string): Promise<Personnel> {
  const person = await lockPersonnel(em, id);
  if (!person) throw HrError.referenceNotFound(param, 'employee');
  if (person.status === 'terminated') throw HrError.personnelTerminated(param);
  if (person.objectId != null && person.objectId !== objectId) throw HrError.otherObject(param);
  return person;
}

/** The brigade, locked against a concurrent disband (shared, so memberships of one brigade do not queue). */
export async function brigadeForShare(em: EntityManager, id: string): Promise<Brigade> {
  return lockBrigade(em, id, LockMode.PESSIMISTIC_READ);
}

/** The brigade (not in the trash), locked as `lock` says (`for update` by default); not found otherwise. */
export async function lockBrigade(em: EntityManager, id: string, lock = LockMode.PESSIMISTIC_WRITE): Promise<Brigade> {
  const brigade = await em.findOne(BrigadeEntity, { id, deletedAt: null }, { lockMode: lock, refresh: true });
  if (!brigade) throw OperationsError.notFound('Brigade');
  return brigade;
}

/** Whether a PostgreSQL error is a unique violation. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
