import type { ResearchUserAccess } from '../../../contracts/access.js';
import { OIDC_ISSUER_PATH, WORKSPACE_RESOURCE_METADATA_PATH, WORKSPACE_RESOURCE_PATH } from '../../../contracts/identity.js';
import type { Config } from '../../../runtime/config.js';
import type { SubgraphContext } from '../../shared/context.js';
import type { Guard } from '../../shared/contracts/implementation.js';
import { AccessTokenError, OidcTokenVerifiers, type OidcIssuerTrust, type VerifiedAccessToken } from '../../shared/oidc-token-verifier.js';
import type { PublicOrigin } from '../../shared/subgraph.js';
import { ResearchError } from '../research.errors.js';
import type { WorkspaceService } from '../workspaces/workspace.service.js';
import { bearerKey } from './key-secret.js';
import type { WorkspaceActor } from './workspace-actor.js';

/** A signed-in person acting in their own workspace, in live mode. */
export interface WorkspaceUser extends WorkspaceActor {
  readonly issuer: string;
  readonly subject: string;
}

declare module '../../shared/contracts/implementation.js' {
  interface Callers {
    researchUser: WorkspaceUser;
  }
}

/**
 * The issuers whose access tokens the workspace API trusts: our own OpenID provider
 * (`<origin>/oidc`, unless `WORKSPACE_OWN_ISSUER=false`) and those of `WORKSPACE_ISSUERS`,
 * each for the audience `<origin>/api/chat` unless it names another.
 */
export function trustedIssuers(config: Config, origin: string): OidcIssuerTrust[] {
  const audience = `${origin}${WORKSPACE_RESOURCE_PATH}`;
  const own: OidcIssuerTrust[] = config.workspaceOwnIssuer ? [{ issuer: `${origin}${OIDC_ISSUER_PATH}`, audience }] : [];
  return [
    ...own,
    ...config.workspaceIssuers.map((entry) => ({
      issuer: entry.issuer,
      audience: entry.audience ?? audience,
      ...(entry.jwksUri ? { jwksUri: entry.jwksUri } : {}),
      ...(entry.tokenType !== undefined ? { type: entry.tokenType } : {}),
    })),
  ];
}

const claim = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * The guard of every `researchUser()` operation (`/api/chat/…`): an OAuth 2.0 bearer access
 * token (RFC 6750), verified against its issuer's JWKS (signature, issuer, audience, expiry,
 * `typ`); the person it names — issuer and subject — is the owner of one workspace, created by
 * their first admitted call. No token → 401 `missing_access_token`, a refused one → 401
 * `invalid_access_token`, both pointing to the protected resource metadata; an issuer whose
 * keys cannot be fetched → 503. Invalid input is refused after the same check, creating nothing.
 */
export class WorkspaceUserGuard implements Guard<ResearchUserAccess> {
  private verifiers: OidcTokenVerifiers | undefined;

  constructor(
    private readonly config: Config,
    private readonly origin: PublicOrigin,
    private readonly workspaces: WorkspaceService,
  ) {}

  async admit(ctx: SubgraphContext): Promise<WorkspaceUser> {
    const token = await this.authenticate(ctx);
    const workspace = await this.workspaces.forOwner(ctx.em, {
      issuer: token.issuer,
      subject: token.subject,
      displayName: claim(token.claims.name) ?? claim(token.claims.email) ?? 'Workspace',
    });
    return { workspaceId: workspace.id, mode: 'live', issuer: token.issuer, subject: token.subject };
  }

  async refuse(ctx: SubgraphContext): Promise<void> {
    await this.authenticate(ctx);
  }

  private async authenticate(ctx: SubgraphContext): Promise<VerifiedAccessToken> {
    const origin = this.origin();
    const metadata = `${origin}${WORKSPACE_RESOURCE_METADATA_PATH}`;
    const token = bearerKey(ctx.headers.authorization);
    if (token === undefined) throw ResearchError.missingAccessToken(metadata);
    this.verifiers ??= new OidcTokenVerifiers(trustedIssuers(this.config, origin));
    try {
      return await this.verifiers.verify(token);
    } catch (error) {
      if (error instanceof AccessTokenError && error.reason === 'invalid_token')
        throw ResearchError.invalidAccessToken(metadata, error.message);
      ctx.logger.warn({ err: error }, 'the identity provider’s keys could not be fetched');
      throw ResearchError.identityProviderUnavailable(error);
    }
  }
}
