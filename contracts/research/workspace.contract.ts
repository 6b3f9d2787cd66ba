import { z } from 'zod';
import { researchUser } from '../access.js';
import { WORKSPACE_RESOURCE_PATH } from '../identity.js';
import { defineOperation, type OperationContract } from '../operation.js';
import { Workspace } from './account-types.js';

/**
 * The workspace API (seed part A, Variant A, "site and workspace routes"; Authentication 5):
 * the operations of the key API, under `/api/chat`, for a person signed in at the identity
 * provider — an OAuth 2.0 bearer access token instead of a key. Those operations are the key
 * API's own contracts, which take either credential, each with a route here that takes a
 * signed-in user's token only (contracts/research/routes.ts, docs/adr/0046). The signed-in user
 * owns their workspace (made by their first call) and may do everything in it, in live mode;
 * what the console needs beyond chat (credits, keys) is here too, under the same protected
 * resource (`/api/chat`, the access token's audience). This file holds the operations only
 * signed-in users have: their workspace and signing out.
 */

const SIGNED_IN =
  'Signed-in users: `Authorization: Bearer <access token>` of the identity provider, acting in their own workspace (live mode).';

export const researchWorkspace = defineOperation({
  service: 'research',
  name: 'researchWorkspace',
  kind: 'query',
  summary: 'The signed-in user’s workspace',
  description: `The workspace of the person the access token names (issuer and subject); their first call to any workspace route creates it. ${SIGNED_IN}`,
  tags: ['workspace'],
  access: researchUser(),
  output: Workspace,
  rest: { method: 'GET', path: `${WORKSPACE_RESOURCE_PATH}/workspace` },
});

export const researchWorkspaceSignOut = defineOperation({
  service: 'research',
  name: 'researchWorkspaceSignOut',
  kind: 'mutation',
  summary: 'Sign out of the workspace API',
  description: `Refuses, from the next call on, the access token presented and every other one issued to this person up to this second (a token issued later is admitted). Call it before ending the session at the identity provider; a refresh token the provider still honours gets new access tokens. ${SIGNED_IN}`,
  tags: ['workspace'],
  access: researchUser(),
  output: z.object({ signedOut: z.boolean() }).meta({ id: 'ResearchWorkspaceSignOut' }),
  rest: { method: 'POST', path: `${WORKSPACE_RESOURCE_PATH}/sign-out` },
});

/** Every operation only the workspace API has, in the order the OpenAPI description lists them. */
export const WORKSPACE_CONTRACTS: readonly OperationContract[] = [researchWorkspace, researchWorkspaceSignOut];
