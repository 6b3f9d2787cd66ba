import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../runtime/logger.js';
import { withAfterCommit } from './after-commit.js';
import { accessOfKind, OPERATIONS_ROLES, type OperationsRole } from '../../../contracts/access.js';
import type { OperationContract } from '../../../contracts/operation.js';
import { OPERATIONS_CONTRACTS } from '../../../contracts/operations/index.js';

/**
 * The system roles of an organization (the hr book `system-roles`) are what the access
 * pipeline enforces: a role may call an operation when the operation's name is among the
 * role's `permissions`, and a role whose `scopeByObject` is set is limited to its holders'
 * production objects (docs/adr, roles are data). Every organization gets the seed's
 * system roles when it is created; an Admin changes them through the book.
 */

export interface SystemRoleDefault {
  readonly code: OperationsRole;
  readonly permissions: readonly string[];
  readonly scopeByObject: boolean;
}

/** Seed 002, Authentication 3: Foreman and Mechanic are limited to their production objects. */
const SCOPED_BY_DEFAULT: ReadonlySet<OperationsRole> = new Set(['Foreman', 'Mechanic']);

/** The roles an operation is gated by; undefined when no role is needed (public, `any` member). */
function rolesOf(contract: OperationContract): readonly OperationsRole[] | undefined {
  const roles = accessOfKind(contract.access, 'operations')?.roles;
  return roles === 'any' ? undefined : roles;
}

/**
 * The seeded system roles: each role holds the operations whose contract lists it (the
 * seed's Role columns); operations open to `any` member need no permission.
 */
export const SYSTEM_ROLE_DEFAULTS: readonly SystemRoleDefault[] = OPERATIONS_ROLES.map((code) => ({
  code,
  permissions: OPERATIONS_CONTRACTS.filter((contract) => rolesOf(contract)?.includes(code) === true)
    .map((contract) => contract.name)
    .sort(),
  scopeByObject: SCOPED_BY_DEFAULT.has(code),
}));

/** The names a permission may take: every operation gated by roles. */
export const PERMISSION_NAMES: ReadonlySet<string> = new Set(
  OPERATIONS_CONTRACTS.filter((contract) => rolesOf(contract) !== undefined).map((contract) => contract.name),
);

/**
 * Writes the seed's system roles into an organization, in the caller's transaction. The
 * tenant setting is set for the inserts (row-level security) and put back afterwards.
 */
export async function seedSystemRoles(tx: EntityManager, organizationId: string): Promise<void> {
  // raw SQL: switches the tenant setting row-level security reads, for the seed
  const [previous] = await tx.execute<Array<{ organization: string | null }>>(
    `select current_setting('app.organization_id', true) as "organization", set_config('app.organization_id', ?, true)`,
    [organizationId],
  );
  for (const role of SYSTEM_ROLE_DEFAULTS) {
    // raw SQL: `on conflict do nothing`: a role already seeded is left as it is
    await tx.execute(
      `insert into "operations"."system_role" ("organization_id", "code", "name", "permissions", "scope_by_object")
       values (?, ?, ?, ?::text[], ?) on conflict do nothing`,
      [organizationId, role.code, role.code, `{${role.permissions.join(',')}}`, role.scopeByObject],
    );
  }
  // raw SQL: puts the tenant setting back
  await tx.execute(`select set_config('app.organization_id', ?, true)`, [previous?.organization ?? '']);
}

export interface RoleGrant {
  readonly permissions: ReadonlySet<string>;
  readonly scopeByObject: boolean;
}

interface Cached {
  readonly stamp: string;
  readonly roles: ReadonlyMap<string, RoleGrant>;
}

/**
 * Each organization's system roles, cached by organization and checked against the stored
 * versions on every read: a change in any process (the book bumps `version` on every
 * update and delete) is seen on the next call.
 */
export class SystemRoleBook {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly root: EntityManager,
    private readonly logger: Logger,
  ) {}

  /**
   * The organization's roles by code (deleted roles grant nothing and are absent). Read on
   * `em` when it is inside a transaction (an in-process caller whose transaction made the
   * organization, e.g. the demo's first start), else on a fresh connection.
   */
  async roles(organizationId: string, em?: EntityManager): Promise<ReadonlyMap<string, RoleGrant>> {
    const on = em?.isInTransaction() ? em : this.root.fork();
    const cached = this.cache.get(organizationId);
    const stamp = await this.read<{ stamp: string | null }>(
      on,
      organizationId,
      `select string_agg("id"::text || ':' || "version" || ':' || ("deleted_at" is null)::text, ',' order by "id") as "stamp"
       from "operations"."system_role" where "organization_id" = ?::uuid`,
    );
    const current = stamp[0]?.stamp ?? '';
    if (cached && cached.stamp === current) return cached.roles;
    const rows = await this.read<{ code: string; permissions: string[]; scope_by_object: boolean; stamp: string | null }>(
      on,
      organizationId,
      `select "code", "permissions", "scope_by_object",
         (select string_agg("id"::text || ':' || "version" || ':' || ("deleted_at" is null)::text, ',' order by "id")
          from "operations"."system_role" where "organization_id" = ?::uuid) as "stamp"
       from "operations"."system_role" where "organization_id" = ?::uuid and "deleted_at" is null`,
      2,
    );
    const roles = new Map(rows.map((row) => [row.code, { permissions: new Set(row.permissions), scopeByObject: row.scope_by_object }]));
    this.cache.set(organizationId, { stamp: rows[0]?.stamp ?? current, roles });
    return roles;
  }

  /** A read under the organization's tenant setting (the book's rows are behind row-level security). */
  private async read<T extends object>(on: EntityManager, organizationId: string, sql: string, parameters = 1): Promise<T[]> {
    return withAfterCommit(on, this.logger, async (tx) => {
      // raw SQL: the tenant setting row-level security reads
      await tx.execute(`select set_config('app.organization_id', ?, true)`, [organizationId]);
      // raw SQL: the version stamp is aggregated in the database (string_agg), so a cache check reads one small row
      return tx.execute<T[]>(
        sql,
        Array.from({ length: parameters }, () => organizationId),
      );
    });
  }
}
