import { sql } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BrigadeEntity, BrigadeMembershipEntity } from './brigade.entity.js';
import { MEMBERSHIP } from './references.js';

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
    const open = await em.find(BrigadeMembershipEntity, { personnelId, toDate: null });
    const brigades = await em.find(BrigadeEntity, { id: { $in: open.map((membership) => membership.brigadeId) } });
    const names = new Map(brigades.map((brigade) => [brigade.id, brigade.name]));
    return open.map((membership) => `active member of brigade "${names.get(membership.brigadeId)}" (${membership.brigadeId})`);
  },
  async close(em, personnelId, on) {
    // raw SQL: bulk update, each membership closed no earlier than it began.
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
    const led = await em.find(
      BrigadeEntity,
      { brigadierId: personnelId, status: 'active', deletedAt: null },
      { orderBy: { name: 'asc', id: 'asc' } },
    );
    return led.map((brigade) => `brigadier of active brigade "${brigade.name}" (${brigade.id})`);
  },
  async close(em, personnelId) {
    await em.nativeUpdate(
      BrigadeEntity,
      { brigadierId: personnelId, status: 'active' },
      { brigadierId: null, updatedAt: sql<Date>`now()` },
    );
  },
};

/** HR's own checks. */
export const HR_ASSIGNMENT_CHECKS: readonly OpenAssignmentCheck[] = [activeMembership, brigadierOfActiveBrigade];
