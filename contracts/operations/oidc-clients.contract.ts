import { z } from 'zod';
import { superAdminOnly } from '../access.js';
import { defineErrorCodes } from '../errors.js';
import { defineOperation } from '../operation.js';
import { cursorPaging, ops } from './fields.js';

/**
 * Clients of the operations service's OpenID provider (`<PUBLIC_BASE_URL>/oidc`), registered
 * by the platform super-admin: first-party applications (the research workspace, …) that
 * sign people in with their Qantara accounts (docs/adr/0016). Field names are RFC 7591's.
 */

export const OidcClientErrorCode = defineErrorCodes('operations', {
  OIDC_CLIENT_NOT_FOUND: { status: 404, description: 'No OpenID client with this `client_id` is registered.' },
});

/** Scopes a client may be allowed; `workspace` adds the organization (`org`) and `roles` claims. */
export const OIDC_SCOPES = ['openid', 'email', 'profile', 'workspace', 'offline_access'] as const;
export type OidcScopeName = (typeof OIDC_SCOPES)[number];
export const OidcScope = z.enum(OIDC_SCOPES).meta({
  id: 'OidcScope',
  description:
    '`openid` (the subject), `email` (`email`, `email_verified`), `profile` (`name`), `workspace` (`org`, `roles`), `offline_access` (refresh tokens).',
});

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** An absolute https URL, or http on a loopback address (development, native apps); no fragment. */
export function isRedirectUri(value: string): boolean {
  const url = URL.parse(value);
  if (!url || url.hash || value.includes('#') || url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

const redirectUri = z.string().max(2000).refine(isRedirectUri, {
  error: 'must be an https URL, or http on a loopback address (127.0.0.1, [::1], localhost), without a fragment',
});

const clientId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'must be letters, digits, _ and -' });

export const OidcClient = z
  .object({
    client_id: z.string(),
    name: z.string(),
    public: z
      .boolean()
      .describe('A public client (browser, native app) proves itself with PKCE alone; a confidential one also with its secret.'),
    token_endpoint_auth_method: z.enum(['none', 'client_secret_basic']).meta({ id: 'OidcTokenEndpointAuthMethod' }),
    redirect_uris: z.array(z.string()),
    post_logout_redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()).describe('Always `authorization_code` and `refresh_token`; PKCE (S256) is required.'),
    scopes: z.array(OidcScope),
    created_at: z.string().describe('ISO 8601.'),
  })
  .meta({ id: 'OidcClient', description: 'A client of the OpenID provider; never its secret.' });

export const NewOidcClient = OidcClient.extend({
  client_secret: z
    .string()
    .nullable()
    .describe('Shown once, for a confidential client (HTTP Basic at the token endpoint); null for a public one.'),
}).meta({ id: 'NewOidcClient', description: 'A registered client, with its secret shown this once.' });

const byClientId = { path: { clientId } };
const noStore = { 'Cache-Control': 'no-store' } as const;
const NOT_FOUND = [OidcClientErrorCode.OIDC_CLIENT_NOT_FOUND];

export const iamListOidcClients = defineOperation({
  service: 'operations',
  name: 'iamListOidcClients',
  kind: 'query',
  summary: 'OpenID clients',
  description: 'The clients of the OpenID provider, oldest first, in cursor pages.',
  tags: ['oidc'],
  access: superAdminOnly(),
  output: OidcClient,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/iam/oidc-clients' },
});

export const iamCreateOidcClient = defineOperation({
  service: 'operations',
  name: 'iamCreateOidcClient',
  kind: 'mutation',
  summary: 'Register an OpenID client',
  description:
    'A first-party client: its users are not asked for consent. Authorization code with PKCE (S256) only, refresh tokens with `offline_access`. A confidential client (`public: false`) gets a secret, returned this once and kept encrypted.',
  tags: ['oidc'],
  access: superAdminOnly(),
  input: {
    body: {
      name: ops.text(1, 200),
      redirect_uris: z.array(redirectUri).min(1).max(10),
      post_logout_redirect_uris: z.array(redirectUri).max(10).default([]),
      public: z.boolean().default(true),
      scopes: z
        .array(OidcScope)
        .min(1)
        .max(OIDC_SCOPES.length)
        .default([...OIDC_SCOPES]),
    },
  },
  output: NewOidcClient,
  rest: { method: 'POST', path: '/api/v1/iam/oidc-clients', status: 201, headers: noStore },
});

export const iamGetOidcClient = defineOperation({
  service: 'operations',
  name: 'iamGetOidcClient',
  kind: 'query',
  summary: 'An OpenID client',
  tags: ['oidc'],
  access: superAdminOnly(),
  input: byClientId,
  output: OidcClient,
  rest: { method: 'GET', path: '/api/v1/iam/oidc-clients/:clientId' },
  errors: NOT_FOUND,
});

export const iamDeleteOidcClient = defineOperation({
  service: 'operations',
  name: 'iamDeleteOidcClient',
  kind: 'mutation',
  summary: 'Remove an OpenID client',
  description:
    'The client can no longer sign anyone in; its grants, codes and refresh tokens are revoked at once. Access tokens already issued (JWTs) stay valid until they expire (15 minutes at most).',
  tags: ['oidc'],
  access: superAdminOnly(),
  input: byClientId,
  output: OidcClient,
  rest: { method: 'DELETE', path: '/api/v1/iam/oidc-clients/:clientId' },
  errors: NOT_FOUND,
});

export const OIDC_CLIENT_CONTRACTS = [iamListOidcClients, iamCreateOidcClient, iamGetOidcClient, iamDeleteOidcClient];
