/**
 * Addresses of the identity provider and of the resource its access tokens are for,
 * below the public origin: the provider serves them (ADR 0016) and the discovery
 * documents publish them (ADR 0018), from this one declaration.
 */

/** Where our OpenID provider is served: the issuer is `<origin>/oidc`. */
export const OIDC_PREFIX = '/oidc';
/** The resource (audience) of its access tokens: the research workspace API, `<origin>/api/chat`. */
export const WORKSPACE_RESOURCE_PATH = '/api/chat';
/** The resource server's scope: with it the access token also carries `org`, `roles`, `email` and `name`. */
export const WORKSPACE_SCOPE = 'workspace';
