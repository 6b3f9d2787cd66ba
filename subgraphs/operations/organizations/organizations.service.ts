import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type { OrganizationData } from '../../../contracts/operations/iam-types.js';
import type { coreCreateOrganization } from '../../../contracts/operations/organizations.contract.js';
import type { Principal } from '../core/principal.js';
import { seedSystemRoles } from '../core/system-roles.js';
import { OperationsError } from '../operations.errors.js';
import { OrganizationEntity, type Organization } from './organization.entity.js';

export const organizationData = (organization: Organization): OrganizationData => ({
  id: organization.id,
  slug: organization.slug,
  name: organization.name,
  status: organization.status,
  plan: organization.plan,
  createdAt: organization.createdAt.toISOString(),
});

/** Organizations (tenants): the super-admin manages them; an Admin reads their own. A new one gets the seed's system roles. */
export class OrganizationsService {
  async create(em: EntityManager, input: ContractInput<typeof coreCreateOrganization>): Promise<OrganizationData> {
    // `on conflict do nothing`: a taken slug is a 409, not a failed transaction.
    const organization = await em
      .createQueryBuilder(OrganizationEntity)
      .insert({ slug: input.slug, name: input.name })
      .onConflict('slug')
      .ignore()
      .returning('*')
      .getSingleResult();
    if (!organization) throw OperationsError.slugTaken(input.slug);
    // Every organization starts with the seed's system roles, in the same transaction.
    await seedSystemRoles(em, organization.id);
    return organizationData(organization);
  }

  async list(em: EntityManager): Promise<{ items: OrganizationData[] }> {
    const organizations = await em.find(OrganizationEntity, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return { items: organizations.map(organizationData) };
  }

  /** The card: any for the super-admin, only their own for an Admin — another's is as missing as an unknown one. */
  async get(em: EntityManager, principal: Principal, id: string): Promise<OrganizationData> {
    if (!principal.superAdmin && principal.organizationId !== id) throw OperationsError.organizationNotFound();
    const organization = await em.findOne(OrganizationEntity, { id });
    if (!organization) throw OperationsError.organizationNotFound();
    return organizationData(organization);
  }

  async update(
    em: EntityManager,
    id: string,
    change: { name?: string; status?: Organization['status']; plan?: Organization['plan'] },
  ): Promise<OrganizationData> {
    const organization = await em.findOne(OrganizationEntity, { id });
    if (!organization) throw OperationsError.organizationNotFound();
    em.assign(organization, {
      name: change.name ?? organization.name,
      status: change.status ?? organization.status,
      plan: change.plan ?? organization.plan,
      updatedAt: new Date(),
    });
    await em.flush();
    return organizationData(organization);
  }
}
