import { OIDC_ISSUER_PATH, WORKSPACE_RESOURCE_METADATA_PATH, WORKSPACE_RESOURCE_PATH } from '../contracts/identity.js';
import type { WorkspaceResourceFacts } from '../contracts/operation.js';
import type { Config } from './config.js';

/** The configuration that decides how the research workspace API is named and whom it trusts. */
export type WorkspaceSettings = Pick<Config, 'siteBaseUrl' | 'workspaceOwnIssuer' | 'workspaceIssuers' | 'console'>;

/** An issuer whose access tokens the workspace API takes, and the audience they must carry. */
export interface WorkspaceIssuer {
  /** Exactly as its tokens' `iss` say. */
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUri?: string;
  /** The JOSE `typ` its tokens carry; `false` for any (default `at+jwt`). */
  readonly tokenType?: string | false;
}

/** How everyone names the research workspace API: the provider, the API's guard and the discovery documents. */
export interface WorkspaceResource extends WorkspaceResourceFacts {
  /** Our OpenID provider's issuer, `<origin>/oidc` (docs/adr/0016). */
  readonly ownIssuer: string;
  /** The issuers the API trusts, the site's identity provider first; `authorizationServers` lists exactly these. */
  readonly issuers: readonly WorkspaceIssuer[];
  /** The identity provider the site mirrors at `/.well-known/openid-configuration`: the console's, else ours. */
  readonly siteIssuer: string;
}

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The one decision of the workspace API's addresses (docs/adr/0020). The API is a site route
 * (seed 001, part A, Variant A: "site and workspace routes on `{site_url}`"), so its resource
 * identifier — the audience our provider writes into access tokens, the audience the guard
 * requires, the `resource` of its protected resource metadata — is `{site_url}/api/chat`, and
 * the metadata is on the same host (RFC 9728 §3.1). `{site_url}` is `SITE_BASE_URL`, else the
 * public origin: `PUBLIC_BASE_URL`, else the bound address — never a request's `Host`.
 * Trusted: our provider (`<origin>/oidc`) unless `WORKSPACE_OWN_ISSUER=false`, and each of
 * `WORKSPACE_ISSUERS`, for this resource unless it names another audience.
 */
export function workspaceResource(settings: WorkspaceSettings, origin: string): WorkspaceResource {
  const site = settings.siteBaseUrl ?? origin;
  const resource = `${site}${WORKSPACE_RESOURCE_PATH}`;
  const ownIssuer = `${origin}${OIDC_ISSUER_PATH}`;
  const configured = settings.workspaceIssuers.map((entry): WorkspaceIssuer => ({
    issuer: entry.issuer,
    audience: entry.audience ?? resource,
    ...(entry.jwksUri ? { jwksUri: entry.jwksUri } : {}),
    ...(entry.tokenType !== undefined ? { tokenType: entry.tokenType } : {}),
  }));
  const trusted = [...(settings.workspaceOwnIssuer ? [{ issuer: ownIssuer, audience: resource }] : []), ...configured];
  // The console's issuer is one of WORKSPACE_ISSUERS (checked when the configuration is read): named as its tokens say.
  const consoleIssuer = settings.console && configured.find((entry) => sameIssuer(entry.issuer, settings.console!.issuer));
  const siteIssuer = consoleIssuer?.issuer ?? ownIssuer;
  const issuers = [...trusted.filter((entry) => entry.issuer === siteIssuer), ...trusted.filter((entry) => entry.issuer !== siteIssuer)];
  return {
    resource,
    metadata: `${site}${WORKSPACE_RESOURCE_METADATA_PATH}`,
    authorizationServers: [...new Set(issuers.map((entry) => entry.issuer))],
    ownIssuer,
    issuers,
    siteIssuer,
  };
}
