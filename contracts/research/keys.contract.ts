import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { ApiKey, ApiKeyList, IssuedApiKey, KeyMode, Scope } from './account-types.js';
import { ResearchErrorCode } from './errors.js';
import { research } from './fields.js';
import { KEY_API, keyOrSignedIn, WORKSPACE_API_PATH, workspaceApi } from './routes.js';

/** `/v1/api-keys`: the keys of the caller's workspace (scope `api_keys_admin`). */

const NO_STORE = { 'Cache-Control': 'no-store' };
const byId = { path: { apiKeyId: research.apiKeyId() } };
const WORKSPACE_KEYS = `${WORKSPACE_API_PATH}/api-keys`;

export const researchApiKeys = defineOperation({
  service: 'research',
  name: 'researchApiKeys',
  kind: 'query',
  summary: 'List the workspace’s keys',
  description: 'Active and revoked keys of the workspace, newest first; secrets are never shown again.',
  tags: ['api-keys'],
  access: keyOrSignedIn('api_keys_admin'),
  output: ApiKeyList,
  rest: [
    { method: 'GET', path: '/v1/api-keys', ...KEY_API },
    { method: 'GET', path: WORKSPACE_KEYS, ...workspaceApi('researchWorkspaceApiKeys', 'api-keys') },
  ],
});

export const researchCreateApiKey = defineOperation({
  service: 'research',
  name: 'researchCreateApiKey',
  kind: 'mutation',
  summary: 'Create a key',
  description:
    'An explicit `scopes` array is required; give a key the least it needs. `mode` defaults to the calling key’s. The secret is in the answer once.',
  tags: ['api-keys'],
  access: keyOrSignedIn('api_keys_admin'),
  input: {
    body: {
      name: z.string().trim().min(1).max(100).describe('A label, 1 to 100 characters.'),
      scopes: z
        .array(Scope)
        .min(1)
        .max(6)
        .transform((scopes) => [...new Set(scopes)].sort())
        .describe('Variant A scope names; at least one.'),
      mode: KeyMode.optional().describe('`live` or `test`; the calling key’s mode when left out.'),
    },
  },
  output: IssuedApiKey,
  rest: [
    { method: 'POST', path: '/v1/api-keys', status: 201, headers: NO_STORE, ...KEY_API },
    { method: 'POST', path: WORKSPACE_KEYS, status: 201, headers: NO_STORE, ...workspaceApi('researchWorkspaceCreateApiKey', 'api-keys') },
  ],
});

export const researchRotateApiKey = defineOperation({
  service: 'research',
  name: 'researchRotateApiKey',
  kind: 'mutation',
  summary: 'Rotate a key',
  description: 'A new secret for the same key id, shown once; the old secret stops working at once.',
  tags: ['api-keys'],
  access: keyOrSignedIn('api_keys_admin'),
  input: byId,
  output: IssuedApiKey,
  rest: [
    { method: 'POST', path: '/v1/api-keys/:apiKeyId/rotate', headers: NO_STORE, ...KEY_API },
    {
      method: 'POST',
      path: `${WORKSPACE_KEYS}/:apiKeyId/rotate`,
      headers: NO_STORE,
      ...workspaceApi('researchWorkspaceRotateApiKey', 'api-keys'),
    },
  ],
  errors: [ResearchErrorCode.api_key_not_found, ResearchErrorCode.api_key_already_revoked],
});

export const researchRevokeApiKey = defineOperation({
  service: 'research',
  name: 'researchRevokeApiKey',
  kind: 'mutation',
  summary: 'Revoke a key',
  description: 'The key stops working at once, on every instance: keys are read on every call, never cached.',
  tags: ['api-keys'],
  access: keyOrSignedIn('api_keys_admin'),
  input: byId,
  output: ApiKey,
  rest: [
    { method: 'POST', path: '/v1/api-keys/:apiKeyId/revoke', ...KEY_API },
    { method: 'POST', path: `${WORKSPACE_KEYS}/:apiKeyId/revoke`, ...workspaceApi('researchWorkspaceRevokeApiKey', 'api-keys') },
  ],
  errors: [ResearchErrorCode.api_key_not_found, ResearchErrorCode.api_key_already_revoked],
});
