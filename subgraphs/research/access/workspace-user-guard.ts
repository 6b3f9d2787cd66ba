import type { ResearchUserAccess } from '../../../contracts/access.js';
import type { Config } from '../../../runtime/config.js';
import { workspaceResource, type WorkspaceSettings } from '../../../runtime/workspace-resource.js';
import type { SubgraphContext } from '../../shared/context.js';
import type { Guard } from '../../shared/contracts/implementation.js';
import { AccessTokenError, OidcTokenVerifiers, type OidcIssuerTrust, type VerifiedAccessToken } from '../../shared/oidc-token-verifier.js';
import type { PublicOrigin } from '../../shared/subgraph.js';
import { ResearchError } from '../research.errors.js';
import type { OwnedWorkspace, WorkspaceService } from '../workspaces/workspace.service.js';
import { bearerKey, looksLikeJwt } from './key-secret.js';
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
 * The issuers whose access tokens the workspace API trusts, for the audience each must carry:
 * exactly those its protected resource metadata lists as `authorization_servers`, both from
 * `workspaceResource` (our provider unless `WORKSPACE_OWN_ISSUER=false`, and `WORKSPACE_ISSUERS`,
 * for `{site_url}/api/chat` unless an entry names another audience).
 */
export function trustedIssuers(config: WorkspaceSettings, origin: string): OidcIssuerTrust[] {
  return workspaceResource(config, origin).issuers.map(({ tokenType, ...trust }) => ({
    ...trust,
    ...(tokenType !== undefined ? { type: tokenType } : {}),
  }));
}

const claim = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * The guard of every `researchUser()` operation (`/api/chat/…`): an OAuth 2.0 bearer access
 * token (RFC 6750), verified against its issuer's JWKS (signature, issuer, audience, expiry,
 * `typ`); the person it names — issuer and subject — is the owner of one workspace, created by
 * their first admitted call. No token → 401 `missing_access_token`, a refused one → 401
 * `invalid_access_token`, both pointing to the protected resource metadata; an issuer whose
 * keys cannot be fetched → 503. A token issued before its holder signed out on this API
 * (`POST /api/chat/sign-out`) is refused too: the workspace read on every call says when.
 * Invalid input is refused after the same checks, creating nothing.
 */
export class WorkspaceUserGuard implements Guard<ResearchUserAccess> {
  private verifiers: OidcTokenVerifiers | undefined;

  constructor(
    private readonly config: Config,
    private readonly origin: PublicOrigin,
    private readonly workspaces: WorkspaceService,
  ) {}

  /**
   * A bearer credential shaped as an access token (a JWT), valid or not. A key, or anything
   * else, is not one: an operation a key may call too refuses it as a key (docs/adr/0046).
   */
  presents(ctx: SubgraphContext): boolean {
    const token = bearerKey(ctx.headers.authorization);
    return token !== undefined && looksLikeJwt(token);
  }

  async admit(ctx: SubgraphContext): Promise<WorkspaceUser> {
    const token = await this.authenticate(ctx);
    const workspace = await this.workspaces.forOwner(ctx.em, ctx.logger, {
      issuer: token.issuer,
      subject: token.subject,
      displayName: claim(token.claims.name) ?? claim(token.claims.email) ?? 'Workspace',
    });
    this.refuseSignedOut(token, workspace);
    return { workspaceId: workspace.id, mode: 'live', issuer: token.issuer, subject: token.subject };
  }

  async refuse(ctx: SubgraphContext): Promise<void> {
    const token = await this.authenticate(ctx);
    this.refuseSignedOut(token, await this.workspaces.owned(ctx.em, token));
  }

  /** A token issued up to the second of its holder's last sign-out (or without `iat`, after one) is refused. */
  private refuseSignedOut(token: VerifiedAccessToken, workspace: OwnedWorkspace | undefined): void {
    if (workspace?.signedOutSecond == null) return;
    const issuedAt = typeof token.claims.iat === 'number' ? token.claims.iat : undefined;
    if (issuedAt !== undefined && issuedAt > workspace.signedOutSecond) return;
    throw ResearchError.invalidAccessToken(workspaceResource(this.config, this.origin()).metadata, 'its holder signed out');
  }

  private async authenticate(ctx: SubgraphContext): Promise<VerifiedAccessToken> {
    const origin = this.origin();
    const { metadata } = workspaceResource(this.config, origin);
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
