import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';

/**
 * Verifies OAuth 2.0 access tokens that are JWTs (RFC 9068) issued by an OpenID provider —
 * ours (`<PUBLIC_BASE_URL>/oidc`) or any other configured one: the issuer's discovery
 * document gives its JWKS (`jose.createRemoteJWKSet`: fetched on first use, refetched for an
 * unknown `kid`, cached), then the signature, issuer, audience, expiry and type are checked.
 * For a resource server such as the research workspace API (`/api/chat/*`).
 */

export interface OidcIssuerTrust {
  /** The issuer identifier exactly as its tokens' `iss` (and its discovery document) say it. */
  readonly issuer: string;
  /** The audience (`aud`) a token must carry: this resource server, e.g. `{site_url}/api/chat`. */
  readonly audience: string | readonly string[];
  /** Signature algorithms accepted (default RS256, PS256, ES256, EdDSA). */
  readonly algorithms?: readonly string[];
  /** The JOSE `typ` required (default `at+jwt`, RFC 9068); `false` accepts any (issuers that do not set it). */
  readonly type?: string | false;
  /** Leeway for `exp`/`nbf`/`iat`, in seconds (default 30). */
  readonly clockToleranceSeconds?: number;
  /** The JWKS address when known beforehand; otherwise read from discovery. */
  readonly jwksUri?: string;
  /** The discovery address when not `<issuer>/.well-known/openid-configuration`. */
  readonly discoveryUrl?: string;
}

export interface VerifiedAccessToken {
  readonly issuer: string;
  /** The user (`sub`). */
  readonly subject: string;
  /** The client the token was issued to (`client_id`), when the issuer says. */
  readonly clientId: string | undefined;
  /** Scopes granted (`scope`, space-separated in the token). */
  readonly scopes: readonly string[];
  readonly expiresAt: Date;
  /** Every claim, e.g. ours: `org` (organization id or null), `roles`, `email`, `name` with the `workspace` scope. */
  readonly claims: JWTPayload;
}

/** Why a token was refused: `invalid_token` (RFC 6750) for the token's own faults, `unavailable` when the issuer cannot be reached. */
export class AccessTokenError extends Error {
  constructor(
    readonly reason: 'invalid_token' | 'unavailable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AccessTokenError';
  }
}

const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

/** One trusted issuer. */
export class OidcTokenVerifier {
  private keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;

  constructor(
    readonly trust: OidcIssuerTrust,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** The token's subject and claims, or an `AccessTokenError`. */
  async verify(token: string): Promise<VerifiedAccessToken> {
    const keys = await this.jwks();
    const { trust } = this;
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: trust.issuer,
        audience: typeof trust.audience === 'string' ? trust.audience : [...trust.audience],
        algorithms: [...(trust.algorithms ?? DEFAULT_ALGORITHMS)],
        clockTolerance: trust.clockToleranceSeconds ?? 30,
        requiredClaims: ['sub', 'exp'],
        ...(trust.type === false ? {} : { typ: trust.type ?? 'at+jwt' }),
      });
      return {
        issuer: trust.issuer,
        subject: payload.sub!,
        clientId: typeof payload.client_id === 'string' ? payload.client_id : undefined,
        scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
        expiresAt: new Date(payload.exp! * 1000),
        claims: payload,
      };
    } catch (error) {
      if (error instanceof joseErrors.JWKSTimeout)
        throw new AccessTokenError('unavailable', 'the issuer’s keys could not be fetched', { cause: error });
      if (error instanceof joseErrors.JOSEError) throw new AccessTokenError('invalid_token', describe(error), { cause: error });
      throw new AccessTokenError('unavailable', 'the issuer’s keys could not be fetched', { cause: error });
    }
  }

  /** The issuer's key set, found through discovery once; a failed discovery is retried by the next call. */
  private jwks(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    this.keys ??= this.discover().catch((error: unknown) => {
      this.keys = undefined;
      throw error instanceof AccessTokenError
        ? error
        : new AccessTokenError('unavailable', 'the issuer could not be discovered', { cause: error });
    });
    return this.keys;
  }

  private async discover(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    const { trust } = this;
    if (trust.jwksUri) return createRemoteJWKSet(new URL(trust.jwksUri));
    const address = trust.discoveryUrl ?? `${trust.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const response = await this.fetchImpl(address, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new AccessTokenError('unavailable', `discovery answered ${response.status}`);
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== trust.issuer) throw new AccessTokenError('unavailable', `discovery names issuer ${String(document.issuer)}`);
    if (typeof document.jwks_uri !== 'string') throw new AccessTokenError('unavailable', 'discovery has no jwks_uri');
    return createRemoteJWKSet(new URL(document.jwks_uri));
  }
}

/**
 * Several trusted issuers (ours by default, others by configuration): a token goes to the
 * verifier of the issuer it names (`iss`, read before verifying); an unknown issuer is refused.
 */
export class OidcTokenVerifiers {
  private readonly byIssuer: ReadonlyMap<string, OidcTokenVerifier>;

  constructor(trusted: readonly OidcIssuerTrust[], fetchImpl: typeof fetch = fetch) {
    this.byIssuer = new Map(trusted.map((trust) => [trust.issuer, new OidcTokenVerifier(trust, fetchImpl)]));
  }

  async verify(token: string): Promise<VerifiedAccessToken> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw new AccessTokenError('invalid_token', 'the token is not a JWT');
    }
    const verifier = typeof issuer === 'string' ? this.byIssuer.get(issuer) : undefined;
    if (!verifier) throw new AccessTokenError('invalid_token', 'the token’s issuer is not trusted');
    return verifier.verify(token);
  }
}

function describe(error: InstanceType<typeof joseErrors.JOSEError>): string {
  if (error instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `the token’s ${error.claim} claim is not accepted`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey)
    return 'the token is not signed by the issuer';
  return 'the token is malformed or not accepted';
}
