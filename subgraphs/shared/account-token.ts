import { ACCOUNT_TOKEN } from '../../contracts/identity.js';
import type { SubgraphContext } from './context.js';
import { AccessTokenError, OidcTokenVerifier } from './oidc-token-verifier.js';
import type { PublicOrigin } from './subgraph.js';

/** The Qantara account a request's bearer token names. */
export interface AccountCaller {
  /** The account's id (`sub`): the key of the `User` entity. */
  readonly userId: string;
  readonly email: string | undefined;
  /** The platform super-admin, who may read every account's records. */
  readonly superAdmin: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Verifies the Qantara account's access tokens (operations' sign-in, `ACCOUNT_TOKEN`) where
 * another service serves the account: signature against the keys operations publishes at
 * `<origin>/api/v1/iam/jwks` (fetched once, again for an unknown `kid`), issuer, audience,
 * expiry and `typ`. One verification per request, however many fields ask. A signature does
 * not say whether its holder signed out since: `confirmed` asks operations too (docs/adr/0039).
 */
export class AccountTokens {
  private verifier: OidcTokenVerifier | undefined;
  private readonly requests = new WeakMap<SubgraphContext, Promise<AccountCaller>>();

  constructor(private readonly origin: PublicOrigin) {}

  /**
   * The caller, once operations also still takes the token (`GET /api/v1/iam/me`): not signed
   * out, the account active. For what a stolen token must not keep doing after a sign-out,
   * e.g. minting keys; one more round trip, so not for every read.
   */
  async confirmed(ctx: SubgraphContext): Promise<AccountCaller> {
    const caller = await this.caller(ctx);
    let response: Response;
    try {
      response = await fetch(`${this.origin()}${ACCOUNT_TOKEN.mePath}`, {
        headers: { authorization: ctx.headers.authorization ?? '', accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel();
    } catch (error) {
      throw new AccessTokenError('unavailable', 'operations could not be asked about the token', { cause: error });
    }
    if (response.status === 401) throw new AccessTokenError('invalid_token', 'the token was revoked or its account is inactive');
    if (!response.ok) throw new AccessTokenError('unavailable', `operations answered ${response.status} about the token`);
    return caller;
  }

  /** The caller, or an `AccessTokenError` (`invalid_token` for a missing or refused token, `unavailable` when the keys cannot be fetched). */
  caller(ctx: SubgraphContext): Promise<AccountCaller> {
    let caller = this.requests.get(ctx);
    if (!caller) {
      caller = this.verify(ctx.headers.authorization);
      caller.catch(() => undefined);
      this.requests.set(ctx, caller);
    }
    return caller;
  }

  private async verify(authorization: string | undefined): Promise<AccountCaller> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new AccessTokenError('invalid_token', 'no bearer token was sent');
    this.verifier ??= new OidcTokenVerifier({
      issuer: ACCOUNT_TOKEN.issuer,
      audience: ACCOUNT_TOKEN.audience,
      algorithms: [ACCOUNT_TOKEN.algorithm],
      jwksUri: `${this.origin()}${ACCOUNT_TOKEN.jwksPath}`,
    });
    const verified = await this.verifier.verify(token);
    if (!UUID.test(verified.subject)) throw new AccessTokenError('invalid_token', 'the token names no account');
    const { email, sa } = verified.claims;
    return { userId: verified.subject, email: typeof email === 'string' ? email : undefined, superAdmin: sa === true };
  }
}
