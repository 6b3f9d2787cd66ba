import { z } from 'zod';
import { researchUser, type Access, type ResearchUserAccess } from '../access.js';
import { WORKSPACE_RESOURCE_PATH } from '../identity.js';
import { defineOperation, type OperationContract, type RestBinding } from '../operation.js';
import { Workspace } from './account-types.js';
import { researchBilling, researchCreateTopUp } from './billing.contract.js';
import { researchThreadWatch } from './events.contract.js';
import { researchApiKeys, researchCreateApiKey, researchRevokeApiKey, researchRotateApiKey } from './keys.contract.js';
import {
  pollRun,
  pollThread,
  researchAppendMessage,
  researchCreateThread,
  researchRunReport,
  researchStartRun,
  researchThread,
  researchThreads,
} from './threads.contract.js';

/**
 * The workspace API (seed part A, Variant A, "site and workspace routes"; Authentication 5):
 * the operations of the key API, under `/api/chat`, for a person signed in at the identity
 * provider — an OAuth 2.0 bearer access token instead of a key. Each is the key operation's
 * contract with another access and path: the same input, output, errors and service method.
 * The signed-in user owns their workspace (made by their first call) and may do everything
 * in it, in live mode; what the console needs beyond chat (credits, keys) is here too, under
 * the same protected resource (`/api/chat`, the access token's audience).
 */

const SIGNED_IN =
  'Signed-in users: `Authorization: Bearer <access token>` of the identity provider, acting in their own workspace (live mode).';

/** A key operation as a signed-in user's: same input, output, errors and service method; another access, name and path. */
export type SignedIn<C extends OperationContract> =
  C extends OperationContract<infer I, infer R, Access, infer X> ? OperationContract<I, R, ResearchUserAccess, X> : never;

type BindingOf<C extends OperationContract> = C['rest'][number];

/**
 * Derives the signed-in user's operation from a key operation: `path` replaces the key
 * route's (its `:params` must be the same), `binding` overrides what differs on the wire;
 * without `path` the operation is GraphQL only.
 */
export function forSignedInUser<C extends OperationContract>(
  base: C,
  name: string,
  route?: { readonly path: string; readonly binding?: Partial<BindingOf<C>> },
): SignedIn<C> {
  if (!/^[a-z][A-Za-z0-9]*$/.test(name)) throw new Error(`operation ${name}: the name must be camelCase`);
  const baseBinding = base.rest[0] as RestBinding | undefined;
  let rest: readonly RestBinding[] = [];
  if (route) {
    if (!baseBinding) throw new Error(`operation ${name}: ${base.name} has no REST route to derive from`);
    const params = (path: string) =>
      [...path.matchAll(/:([A-Za-z_]+)/g)]
        .map((match) => match[1])
        .sort()
        .join();
    if (params(route.path) !== params(baseBinding.path)) throw new Error(`operation ${name}: ${route.path} has other path parameters`);
    rest = [{ ...baseBinding, ...route.binding, path: route.path }];
  }
  const derived: OperationContract = {
    ...base,
    name,
    access: [researchUser()],
    rest,
    mcp: undefined,
    tags: [...new Set([...base.tags, 'workspace'])],
    description: `${base.description ?? base.summary} ${SIGNED_IN}`,
  };
  return derived as SignedIn<C>;
}

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

const threads = `${WORKSPACE_RESOURCE_PATH}/threads`;

export const researchWorkspaceThreads = forSignedInUser(researchThreads, 'researchWorkspaceThreads', { path: threads });
export const researchWorkspaceThread = forSignedInUser(researchThread, 'researchWorkspaceThread', { path: `${threads}/:threadId` });
export const researchWorkspaceCreateThread = forSignedInUser(researchCreateThread, 'researchWorkspaceCreateThread', {
  path: threads,
  binding: { respond: pollThread(threads) },
});
export const researchWorkspaceAppendMessage = forSignedInUser(researchAppendMessage, 'researchWorkspaceAppendMessage', {
  path: `${threads}/:threadId/messages`,
  binding: { respond: pollThread(threads) },
});
export const researchWorkspaceStartRun = forSignedInUser(researchStartRun, 'researchWorkspaceStartRun', {
  path: `${threads}/:threadId/research-runs`,
  binding: { respond: pollRun(threads) },
});
export const researchWorkspaceRunReport = forSignedInUser(researchRunReport, 'researchWorkspaceRunReport', {
  path: `${threads}/:threadId/research-runs/:runId`,
});
/** The grant of `threadUpdated` for a signed-in user's connection. */
export const researchWorkspaceThreadWatch = forSignedInUser(researchThreadWatch, 'researchWorkspaceThreadWatch');

const billing = `${WORKSPACE_RESOURCE_PATH}/billing`;
const topUps = `${billing}/top-ups`;

export const researchWorkspaceBilling = forSignedInUser(researchBilling, 'researchWorkspaceBilling', {
  path: billing,
  binding: { respond: (record, request) => ({ body: { ...record, topUpEndpoint: `${request.baseUrl}${topUps}` } }) },
});
export const researchWorkspaceCreateTopUp = forSignedInUser(researchCreateTopUp, 'researchWorkspaceCreateTopUp', { path: topUps });

const keys = `${WORKSPACE_RESOURCE_PATH}/api-keys`;

export const researchWorkspaceApiKeys = forSignedInUser(researchApiKeys, 'researchWorkspaceApiKeys', { path: keys });
export const researchWorkspaceCreateApiKey = forSignedInUser(researchCreateApiKey, 'researchWorkspaceCreateApiKey', { path: keys });
export const researchWorkspaceRotateApiKey = forSignedInUser(researchRotateApiKey, 'researchWorkspaceRotateApiKey', {
  path: `${keys}/:apiKeyId/rotate`,
});
export const researchWorkspaceRevokeApiKey = forSignedInUser(researchRevokeApiKey, 'researchWorkspaceRevokeApiKey', {
  path: `${keys}/:apiKeyId/revoke`,
});

/** Every workspace operation, in the order the OpenAPI description lists them. */
export const WORKSPACE_CONTRACTS: readonly OperationContract[] = [
  researchWorkspace,
  researchWorkspaceSignOut,
  researchWorkspaceThreads,
  researchWorkspaceThread,
  researchWorkspaceCreateThread,
  researchWorkspaceAppendMessage,
  researchWorkspaceStartRun,
  researchWorkspaceRunReport,
  researchWorkspaceThreadWatch,
  researchWorkspaceBilling,
  researchWorkspaceCreateTopUp,
  researchWorkspaceApiKeys,
  researchWorkspaceCreateApiKey,
  researchWorkspaceRotateApiKey,
  researchWorkspaceRevokeApiKey,
];
