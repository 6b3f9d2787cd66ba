import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type { OrganizationData } from '../../../contracts/operations/iam-types.js';
import type { coreCreateOrganization } from '../../../contracts/operations/organizations.contract.js';
import type { Principal } from '../core/principal.js';
import { seedSystemRoles } from '../core/system-roles.js';
import { OperationsError } from '../operations.errors.js';

export interface OrganizationRow {
  id: string;
  slug: string;
  name: string;
  status: 'active' | 'deactivated';
  plan: OrganizationData['plan'];
  created_at: Date;
}

export const organizationData = (row: OrganizationRow): OrganizationData => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  status: row.status,
  plan: row.plan,
  createdAt: new Date(row.created_at).toISOString(),
});

/** Organizations (tenants): the super-admin manages them; an Admin reads their own. A new one gets the seed's system roles. */
export class OrganizationsService {
  async create(em: EntityManager, input: ContractInput<typeof coreCreateOrganization>): Promise<OrganizationData> {
    const [row] = await em.execute<OrganizationRow[]>(
      `insert into "operations"."organization" ("slug", "name") values (?, ?) on conflict ("slug") do nothing returning *`,
      [input.slug, input.name],
    );
    if (!row) throw OperationsError.slugTaken(input.slug);
    // Every organization starts with the seed's system roles, in the same transaction.
    await seedSystemRoles(em, row.id);
    return organizationData(row);
  }

  async list(em: EntityManager): Promise<{ items: OrganizationData[] }> {
    const rows = await em.execute<OrganizationRow[]>(`select * from "operations"."organization" order by "created_at", "id"`);
    return { items: rows.map(organizationData) };
  }

  /** The card: any for the super-admin, only their own for an Admin — another's is as missing as an unknown one. */
  async get(em: EntityManager, principal: Principal, id: string): Promise<OrganizationData> {
    if (!principal.superAdmin && principal.organizationId !== id) throw OperationsError.organizationNotFound();
    const [row] = await em.execute<OrganizationRow[]>(`select * from "operations"."organization" where "id" = ?`, [id]);
    if (!row) throw OperationsError.organizationNotFound();
    return organizationData(row);
  }

  async update(
    em: EntityManager,
    id: string,
    change: { name?: string; status?: OrganizationRow['status']; plan?: OrganizationRow['plan'] },
  ): Promise<OrganizationData> {
    const [row] = await em.execute<OrganizationRow[]>(
      `update "operations"."organization" set "name" = coalesce(?, "name"), "status" = coalesce(?, "status"), "plan" = coalesce(?, "plan"), "updated_at" = now()
       where "id" = ? returning *`,
      [change.name ?? null, change.status ?? null, change.plan ?? null, id],
    );
    if (!row) throw OperationsError.organizationNotFound();
    return organizationData(row);
  }
}
