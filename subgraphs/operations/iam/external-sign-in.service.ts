import type { EntityManager } from '@mikro-orm/postgresql';
import * as oidc from 'openid-client';
import type { BodyOf, QueryOf } from '../../../contracts/operation.js';
import type {
  EXTERNAL_SIGN_IN_ERRORS,
  iamExternalSignInCallback,
  iamStartExternalSignIn,
} from '../../../contracts/operations/accounts.contract.js';
import type { LoginData } from '../../../contracts/operations/iam-types.js';
import { DomainError } from '../../../contracts/errors.js';
import { OperationsErrorCode } from '../../../contracts/operations/errors.js';
import type { OidcProviderConfig } from '../../../runtime/config.js';
import type { Logger } from '../../../runtime/logger.js';
import { OperationsError } from '../operations.errors.js';
import { ACCOUNT_TOKENS, accountTokens, sha256Hex } from './account-tokens.js';
import type { ClientInfo } from './client.js';
import type { IamService } from './iam.service.js';
import type { AccountRow, PendingSecondFactor } from './sign-in.js';
import { AppUserEntity } from './app-user.entity.js';
import { ExternalIdentityEntity, ExternalLoginEntity, type ExternalLogin } from './external-identity.entity.js';

type ErrorCode = keyof typeof EXTERNAL_SIGN_IN_ERRORS;

/** How long a started external sign-in may take. */
const START_MINUTES = 10;
/** A same-origin path: `/…` but not `//…` (another host) nor a backslash trick. */
const SAME_ORIGIN_PATH = /^\/(?![/\\])[^\s\\]*$/;

type StartedLogin = ExternalLogin;

/** Thrown inside the callback to end it with a redirect carrying the code. */
class ExternalFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly locale = 'en',
  ) {
    super(code);
  }
}

/**
 * Sign-in with external OpenID Connect providers (`OIDC_PROVIDERS`, at most two): the
 * authorization code flow with PKCE, state and nonce (`openid-client`); a new e-mail
 * registers an account, a known one is linked; then the same checks as a password sign-in
 * (ban, IP whitelist, second factor). The browser comes back to `/{locale}/login` with a
 * one-time code (never a token in an address) or `?error=<code>`.
 */
export class ExternalSignInService {
  private readonly configurations = new Map<string, Promise<oidc.Configuration>>();

  constructor(
    private readonly providers: readonly OidcProviderConfig[],
    private readonly iam: IamService,
    private readonly logger: Logger,
  ) {}

  list() {
    return { providers: this.providers.map((provider) => ({ name: provider.name, issuer: provider.issuer })) };
  }

  /** The provider's discovered configuration, cached; a failed discovery is retried next time. */
  private configuration(name: string): Promise<oidc.Configuration> {
    const provider = this.providers.find((candidate) => candidate.name === name);
    if (!provider) return Promise.reject(OperationsError.identityProviderUnknown(name));
    let found = this.configurations.get(name);
    if (!found) {
      const issuer = new URL(provider.issuer);
      // Plain-HTTP issuers are accepted for loopback and development; production issuers are HTTPS.
      const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
      found = oidc.discovery(issuer, provider.clientId, provider.clientSecret, undefined, { execute }).catch((error: unknown) => {
        this.configurations.delete(name);
        this.logger.warn({ err: error, provider: name }, 'identity provider discovery failed');
        throw OperationsError.identityProviderUnavailable(name);
      });
      this.configurations.set(name, found);
    }
    return found;
  }

  async start(em: EntityManager, name: string, input: BodyOf<typeof iamStartExternalSignIn>, client: ClientInfo) {
    const configuration = await this.configuration(name);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    const redirectUri = `${client.baseUrl}/api/v1/iam/identity-providers/${name}/callback`;
    const next = input.next && SAME_ORIGIN_PATH.test(input.next) ? input.next : null;
    em.create(ExternalLoginEntity, {
      state: sha256Hex(state),
      provider: name,
      codeVerifier: verifier,
      nonce,
      locale: input.locale,
      next,
      redirectUri,
      expiresAt: new Date(Date.now() + START_MINUTES * 60_000),
    });
    await em.flush();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { authorization_url: url.href };
  }

  /** The provider's redirect back: always answers with a redirect to the login page. */
  async callback(
    em: EntityManager,
    name: string,
    query: QueryOf<typeof iamExternalSignInCallback>,
    client: ClientInfo,
  ): Promise<{ location: string }> {
    try {
      const started = await this.started(em, name, query.state);
      const to = (params: Record<string, string>) => `${client.baseUrl}/${started.locale}/login?${new URLSearchParams(params)}`;
      if (query.error) throw new ExternalFailure(query.error === 'access_denied' ? 'consent_cancelled' : 'provider_error', started.locale);
      const claims = await this.claims(name, started, query);
      const account = await this.account(em, name, claims, started.locale);
      const step = await this.iam.signIn.afterFirstFactor(em, account, client, `oidc:${name}`).catch((error: unknown) => {
        throw new ExternalFailure(this.failureOf(error), started.locale);
      });
      const pending: PendingSecondFactor | null = step.kind === 'second-factor' ? step.pending : null;
      const code = await accountTokens.issue(em, account.id, ACCOUNT_TOKENS.externalSignIn, { pending });
      return { location: to({ code, ...(started.next ? { next: started.next } : {}) }) };
    } catch (error) {
      if (!(error instanceof ExternalFailure)) throw error;
      return { location: `${client.baseUrl}/${error.locale}/login?error=${error.code}` };
    }
  }

  /** The started sign-in this state belongs to, spent at once (a state works once). */
  private async started(em: EntityManager, name: string, state: string | undefined): Promise<StartedLogin> {
    if (!this.providers.some((provider) => provider.name === name)) throw new ExternalFailure('provider_disabled');
    if (!state) throw new ExternalFailure('state_mismatch');
    const started = await em.findOne(ExternalLoginEntity, { state: sha256Hex(state), provider: name, expiresAt: { $gt: new Date() } });
    // Taken by the call whose delete removed it: a state is good for one callback only.
    if (started && (await em.nativeDelete(ExternalLoginEntity, { state: started.state })) === 0)
      throw new ExternalFailure('state_mismatch');
    if (!started) throw new ExternalFailure('state_mismatch');
    return started;
  }

  private async claims(name: string, started: StartedLogin, query: Record<string, string | undefined>) {
    const callbackUrl = new URL(started.redirectUri);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) callbackUrl.searchParams.set(key, value);
    try {
      const configuration = await this.configuration(name);
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: started.codeVerifier,
        expectedState: query.state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      return claims;
    } catch (error) {
      this.logger.warn({ err: error, provider: name }, 'external sign-in: the provider’s answer was refused');
      throw new ExternalFailure('provider_error', started.locale);
    }
  }

  /**
   * The account of an external identity: linked before, or found by its verified e-mail
   * (and linked), or registered. Linking to an account whose own address was never
   * verified clears that account's password, so whoever registered the address first
   * cannot keep a way in.
   */
  private async account(em: EntityManager, name: string, claims: oidc.IDToken, locale: string): Promise<AccountRow> {
    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    const linked = await em.findOne(ExternalIdentityEntity, { provider: name, subject: claims.sub });
    let userId = linked?.userId;
    if (!userId) {
      if (!email || claims.email_verified !== true) throw new ExternalFailure('email_missing', locale);
      // raw SQL: one conditional update matched case-insensitively (the password goes only when the address was never verified).
      const [existing] = await em.execute<Array<{ id: string }>>(
        `update "operations"."app_user" set
           "password_hash" = case when "email_verified_at" is null then null else "password_hash" end,
           "email_verified_at" = coalesce("email_verified_at", now())
         where lower("email") = lower(?) returning "id"`,
        [email],
      );
      userId = existing?.id ?? (await this.register(em, email, claims));
      await em
        .createQueryBuilder(ExternalIdentityEntity)
        .insert({ provider: name, subject: claims.sub, userId })
        .onConflict(['provider', 'subject'])
        .ignore()
        .execute();
    }
    const account = await this.iam.signIn.account(em, { id: userId });
    if (!account?.active) throw new ExternalFailure('account_banned', locale);
    return account;
  }

  private async register(em: EntityManager, email: string, claims: oidc.IDToken): Promise<string> {
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : email.split('@')[0]!;
    const user = em.create(AppUserEntity, { email, name, emailVerifiedAt: new Date() });
    await em.flush();
    return user.id;
  }

  private failureOf(error: unknown): ErrorCode {
    if (!(error instanceof DomainError)) throw error;
    if (error.key === OperationsErrorCode.ACCOUNT_BANNED) return 'account_banned';
    if (error.key === OperationsErrorCode.IP_NOT_APPROVED) return 'ip_not_approved';
    throw error;
  }

  /** The one-time code of the login redirect → the session, or the pending second factor. */
  async exchange(em: EntityManager, code: string): Promise<LoginData> {
    const { userId, payload } = await accountTokens.spend<{ pending: PendingSecondFactor | null }>(em, code, ACCOUNT_TOKENS.externalSignIn);
    const account = await this.iam.signIn.account(em, { id: userId });
    if (!account?.active || account.banned_at) throw OperationsError.linkInvalid();
    if (payload.pending) return this.iam.complete(em, { kind: 'second-factor', user: account, pending: payload.pending });
    return this.iam.complete(em, { kind: 'signed-in', user: account });
  }
}
