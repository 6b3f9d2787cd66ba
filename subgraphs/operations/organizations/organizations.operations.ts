import {
  coreCreateOrganization,
  coreDeactivateOrganization,
  coreGetOrganization,
  coreListOrganizations,
  coreReactivateOrganization,
  coreUpdateOrganization,
} from '../../../contracts/operations/organizations.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { OrganizationsService } from './organizations.service.js';

export function organizationOperations(services: Services): Implementation[] {
  const organizations = services.get(OrganizationsService);
  return [
    implement(coreCreateOrganization, (input, { ctx }) => organizations.create(ctx.em, input)),
    implement(coreListOrganizations, (_input, { ctx }) => organizations.list(ctx.em)),
    implement(coreGetOrganization, (input, { ctx, caller }) => organizations.get(ctx.em, caller, input.id)),
    implement(coreUpdateOrganization, (input, { ctx }) => organizations.update(ctx.em, input.id, { name: input.name, plan: input.plan })),
    implement(coreDeactivateOrganization, (input, { ctx }) => organizations.update(ctx.em, input.id, { status: 'deactivated' })),
    implement(coreReactivateOrganization, (input, { ctx }) => organizations.update(ctx.em, input.id, { status: 'active' })),
  ];
}
