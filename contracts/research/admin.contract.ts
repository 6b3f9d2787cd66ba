import { z } from 'zod';
import { adminToken } from '../access.js';
import { defineOperation } from '../operation.js';
import { CreditGrant, KeyMode, WorkspaceCreated } from './account-types.js';
import { ResearchErrorCode } from './errors.js';
import { research } from './fields.js';

/** `/admin/research`: bootstrap for manually provisioned integrations and support (`x-admin-token`). */

const ADMIN = 'Admin only: header `x-admin-token`.';

export const researchAdminCreateWorkspace = defineOperation({
  service: 'research',
  name: 'researchAdminCreateWorkspace',
  kind: 'mutation',
  summary: 'Create a workspace',
  description: `A workspace and its first key (scope \`api_keys_admin\`, shown once), with which the integration creates the keys it needs. ${ADMIN}`,
  tags: ['admin'],
  access: adminToken(),
  input: {
    body: {
      name: z.string().trim().min(1).max(200).describe('The workspace’s name.'),
      mode: KeyMode.default('live').describe('Mode of the first key.'),
    },
  },
  output: WorkspaceCreated,
  rest: { method: 'POST', path: '/admin/research/workspaces', status: 201, headers: { 'Cache-Control': 'no-store' } },
  errors: [ResearchErrorCode.admin_unauthorized],
});

export const researchAdminGrantCredits = defineOperation({
  service: 'research',
  name: 'researchAdminGrantCredits',
  kind: 'mutation',
  summary: 'Grant credits',
  description: `Credits a workspace through its ledger (support, tests); a negative amount takes credits back, never below zero. ${ADMIN}`,
  tags: ['admin'],
  access: adminToken(),
  input: {
    path: { workspaceId: research.workspaceId() },
    body: {
      credits: z
        .int()
        .min(-1_000_000)
        .max(1_000_000)
        .refine((credits) => credits !== 0, { error: 'must not be 0' }),
      reason: z.string().trim().min(1).max(500).describe('Why, for the ledger.'),
      mode: KeyMode.default('live').describe('The balance credited: `live` or `test`.'),
    },
  },
  output: CreditGrant,
  rest: { method: 'POST', path: '/admin/research/workspaces/:workspaceId/credits' },
  errors: [ResearchErrorCode.admin_unauthorized, ResearchErrorCode.workspace_not_found, ResearchErrorCode.insufficient_credits],
});
