import { z } from 'zod';
import { members, superAdminOnly } from '../access.js';
import { defineOperation } from '../operation.js';
import { OperationsErrorCode } from './errors.js';
import { ops } from './fields.js';
import { Organization, OrganizationPlan } from './iam-types.js';

/** Organizations (tenants), exactly as the seed lists them. */

const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,48}[a-z0-9])?$/;
const byId = { path: { id: ops.id() } };
const NOT_FOUND = [OperationsErrorCode.ORGANIZATION_NOT_FOUND];

export const coreCreateOrganization = defineOperation({
  service: 'operations',
  name: 'coreCreateOrganization',
  kind: 'mutation',
  summary: 'Create an organization',
  description: 'An empty organization; reference data are seeded separately per tenant.',
  tags: ['core'],
  access: superAdminOnly(),
  idempotency: 'required',
  input: {
    body: {
      slug: z.string().min(3).max(50).regex(SLUG, { error: 'must be lower-case letters, digits and inner hyphens' }),
      name: ops.text(1, 200),
    },
  },
  output: Organization,
  rest: { method: 'POST', path: '/api/v1/core/organizations', status: 201 },
  errors: [OperationsErrorCode.ORGANIZATION_SLUG_TAKEN],
});

export const coreListOrganizations = defineOperation({
  service: 'operations',
  name: 'coreListOrganizations',
  kind: 'query',
  summary: 'List organizations',
  tags: ['core'],
  access: superAdminOnly(),
  output: z.object({ items: z.array(Organization) }).meta({ id: 'OrganizationList' }),
  rest: { method: 'GET', path: '/api/v1/core/organizations' },
});

export const coreGetOrganization = defineOperation({
  service: 'operations',
  name: 'coreGetOrganization',
  kind: 'query',
  summary: 'Organization card',
  description: 'The super-admin reads any; an Admin only their own.',
  tags: ['core'],
  access: members(['Admin'], { objectScope: false, tenant: false }),
  input: byId,
  output: Organization,
  rest: { method: 'GET', path: '/api/v1/core/organizations/:id' },
  errors: NOT_FOUND,
});

export const coreUpdateOrganization = defineOperation({
  service: 'operations',
  name: 'coreUpdateOrganization',
  kind: 'mutation',
  summary: 'Rename an organization or change its plan',
  description: 'The slug is immutable. The plan sets the daily quota of its API keys (Free 1,000, Pro 10,000, Enterprise unlimited).',
  tags: ['core'],
  access: superAdminOnly(),
  input: { ...byId, body: { name: ops.text(1, 200).optional(), plan: OrganizationPlan.optional() } },
  output: Organization,
  rest: { method: 'PATCH', path: '/api/v1/core/organizations/:id' },
  errors: NOT_FOUND,
});

const transition = (name: string, verb: string, summary: string) =>
  defineOperation({
    service: 'operations',
    name,
    kind: 'mutation',
    summary,
    description: 'A marker only: users of the organization can still sign in.',
    tags: ['core'],
    access: superAdminOnly(),
    input: byId,
    output: Organization,
    rest: { method: 'POST', path: `/api/v1/core/organizations/:id/${verb}` },
    errors: NOT_FOUND,
  });

export const coreDeactivateOrganization = transition('coreDeactivateOrganization', 'deactivate', 'Deactivate an organization');
export const coreReactivateOrganization = transition('coreReactivateOrganization', 'reactivate', 'Reactivate an organization');
