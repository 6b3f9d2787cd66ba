import { z } from 'zod';
import { members } from '../access.js';
import { defineOperation } from '../operation.js';
import { OperationsErrorCode as Code } from './errors.js';
import { cursorPaging, ops } from './fields.js';
import { ApiKey, ApiKeyScope, NewApiKey } from './iam-types.js';

/**
 * Business API keys (seed 001, part B): `X-API-Key` on every operations route, each key
 * owned by one user and one organization, scoped, expiring, revocable at once. Keys are
 * managed with a user's bearer token, never with a key (docs/adr/0009).
 */

const keyManager = members('any', { objectScope: false, userOnly: true });
const noStore = { 'Cache-Control': 'no-store' } as const;

export const iamListApiKeys = defineOperation({
  service: 'operations',
  name: 'iamListApiKeys',
  kind: 'query',
  summary: 'API keys',
  description: 'An Admin sees every key of the organization; other users their own. Secrets are never shown.',
  tags: ['api-keys'],
  access: keyManager,
  output: ApiKey,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/api-keys' },
});

export const iamCreateApiKey = defineOperation({
  service: 'operations',
  name: 'iamCreateApiKey',
  kind: 'mutation',
  summary: 'Create an API key',
  description:
    'The secret is returned once: a fixed prefix `qsk_` and 43 URL-safe characters; only its SHA-256 is kept. Scopes: `read` (GET), `write` (POST, PATCH, PUT), `delete`, `admin` (super-admin operations), `webhooks`, `*` (all; avoid in production). A key never does more than its owner’s roles allow, checked on every call.',
  tags: ['api-keys'],
  access: keyManager,
  input: {
    body: {
      label: ops.text(1, 200),
      scopes: z.array(ApiKeyScope).min(1).max(6).default(['read']),
      expires_in_days: z.int().min(1).max(3650).default(365),
    },
  },
  output: NewApiKey,
  rest: { method: 'POST', path: '/api/v1/api-keys', status: 201, headers: noStore },
});

export const iamRevokeApiKey = defineOperation({
  service: 'operations',
  name: 'iamRevokeApiKey',
  kind: 'mutation',
  summary: 'Revoke an API key',
  description: 'With a user bearer token (the owner, or an Admin of the organization). Calls with the key get 401 at once.',
  tags: ['api-keys'],
  access: keyManager,
  input: { path: { keyId: z.uuid() } },
  output: ApiKey,
  rest: { method: 'DELETE', path: '/api/v1/api-keys/:keyId' },
  errors: [Code.API_KEY_NOT_FOUND],
});

export const iamRotateApiKey = defineOperation({
  service: 'operations',
  name: 'iamRotateApiKey',
  kind: 'mutation',
  summary: 'Rotate an API key',
  description:
    'Creates a new key with the same scopes and lifetime and the label suffixed `-v2`; the old key keeps working until you revoke it (watch its `last_used_at`).',
  tags: ['api-keys'],
  access: keyManager,
  input: { path: { keyId: z.uuid() } },
  output: NewApiKey,
  rest: { method: 'POST', path: '/api/v1/api-keys/:keyId/rotate', status: 201, headers: noStore },
  errors: [Code.API_KEY_NOT_FOUND],
});

export const API_KEY_CONTRACTS = [iamListApiKeys, iamCreateApiKey, iamRevokeApiKey, iamRotateApiKey];
