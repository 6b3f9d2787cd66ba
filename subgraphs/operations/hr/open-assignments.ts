import type { EntityManager } from '@mikro-orm/postgresql';
import { BRIGADE, MEMBERSHIP } from './references.js';

/**
 * What keeps an employee from being terminated: each module that assigns people owns a
 * check that finds the employee's open assignments (one line each, for the refusal) and,
 * when termination is forced, closes them in the termination's transaction. The checks
 * are handed to `PersonnelStatusService` in operations.module.ts; the shift-report module
 * adds its own there ("operator in a draft shift report") beside HR's.
 */
export interface OpenAssignmentCheck {
  readonly name: string;
  find(em: EntityManager, personnelId: string): Promise<string[]>;
  close(em: EntityManager, personnelId: string, on: string): Promise<void>;
}

/** An active brigade membership; closed as of the termination date (never before it began). */
export const activeMembership: OpenAssignmentCheck = {
  name: 'brigade membership',
  async find(em, personnelId) {
    const rows = await em.execute<Array<{ brigade_id: string; name: string }>>(
      `select m."brigade_id", b."name" from ${MEMBERSHIP} m join ${BRIGADE} b on b."id" = m."brigade_id"
       where m."personnel_id" = ? and m."to_date" is null`,
      [personnelId],
    );
    return rows.map((row) => `active member of brigade "${row.name}" (${row.brigade_id})`);
  },
  async close(em, personnelId, on) {
    await em.execute(
      `update ${MEMBERSHIP} set "to_date" = greatest("from_date", ?::date), "updated_at" = now() where "personnel_id" = ? and "to_date" is null`,
      [on, personnelId],
    );
  },
};

/** The lead of an active brigade; the brigade is left without a brigadier. */
export const brigadierOfActiveBrigade: OpenAssignmentCheck = {
  name: 'brigadier',
  async find(em, personnelId) {
    const rows = await em.execute<Array<{ id: string; name: string }>>(
      `select "id", "name" from ${BRIGADE} where "brigadier_id" = ? and "status" = 'active' and "deleted_at" is null order by "name", "id"`,
      [personnelId],
    );
    return rows.map((row) => `brigadier of active brigade "${row.name}" (${row.id})`);
  },
  async close(em, personnelId) {
    await em.execute(`update ${BRIGADE} set "brigadier_id" = null, "updated_at" = now() where "brigadier_id" = ? and "status" = 'active'`, [
      personnelId,
    ]);
  },
};

/** HR's own checks. */
export const HR_ASSIGNMENT_CHECKS: readonly OpenAssignmentCheck[] = [activeMembership, brigadierOfActiveBrigade];
