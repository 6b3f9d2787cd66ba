/**
 * Addresses the identity provider and its relying parties agree on, below the public origin:
 * our OpenID provider's issuer path, the resource (audience) its access tokens are for — the
 * research workspace API — and the console's own public client (docs/adr/0016, 0020).
 */

/** Our OpenID provider's issuer: `<origin>/oidc`. */
export const OIDC_ISSUER_PATH = '/oidc';

/** The research workspace API, the resource of every access token our provider issues: `{site_url}/api/chat` (runtime/workspace-resource.ts). */
export const WORKSPACE_RESOURCE_PATH = '/api/chat';

/** Its protected resource metadata (RFC 9728 §3.1: the well-known prefix goes before the resource's path). */
export const WORKSPACE_RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${WORKSPACE_RESOURCE_PATH}`;

/** The resource server's scope: with it an access token also carries `org`, `roles`, `email` and `name`. */
export const WORKSPACE_SCOPE = 'workspace';

/** The console in the browser. */
export const CONSOLE_PATH = '/app';

/**
 * The console's client at our provider: public (PKCE, no secret), registered at start-up
 * with the redirect `<origin>/app/` (and its other loopback spellings on a loopback origin).
 */
export const CONSOLE_CLIENT = {
  clientId: 'qantara-console',
  name: 'Qantara console',
  redirectPath: `${CONSOLE_PATH}/`,
  scopes: ['openid', 'email', 'profile', WORKSPACE_SCOPE, 'offline_access'],
} as const;

/**
 * The Qantara account's own access tokens, issued by operations' sign-in (`POST /api/v1/iam/login`):
 * their issuer and audience, and where their public keys are published under the origin. Research
 * and the library verify them against those keys to serve a signed-in account (docs/adr/0039).
 */
export const ACCOUNT_TOKEN = {
  issuer: 'qantara:operations',
  audience: 'qantara:operations',
  algorithm: 'EdDSA',
  jwksPath: '/api/v1/iam/jwks',
  /** Answers 200 while the token is good at operations (not signed out, account active), 401 otherwise. */
  mePath: '/api/v1/iam/me',
} as const;
