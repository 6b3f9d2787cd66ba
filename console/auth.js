/**
 * Signing in at the identity provider: OAuth 2.0 authorization code with PKCE (S256) as a
 * public client (no secret in the page). Tokens live in this page's memory only — never in
 * `localStorage` or `sessionStorage`, where any script of the origin could read them
 * (docs/adr/0021-console-tokens.md). The access token is refreshed with the rotating refresh token shortly
 * before it expires. A reload forgets them: the console then signs in again at once through
 * the provider's own session (its httpOnly cookie), which asks nothing while it lasts.
 * Only what must survive the redirect is kept for the tab: the PKCE verifier, state and
 * nonce until the provider answers, and a flag saying the tab was signed in.
 */

const PENDING = 'qantara.console.pending';
const RESUME = 'qantara.console.resume';

const base64url = (bytes) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const random = (size = 32) => base64url(crypto.getRandomValues(new Uint8Array(size)));
const challengeOf = async (verifier) => base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));

/** The ID token's claims, for display only (name, e-mail): the API checks the access token itself. */
function claimsOf(idToken) {
  try {
    const payload = idToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload), (char) => char.charCodeAt(0))));
  } catch {
    return {};
  }
}

export class SignInError extends Error {}

export class Session {
  #config;
  #provider;
  #tokens;
  #refreshing;

  constructor(config, provider) {
    this.#config = config;
    this.#provider = provider;
    this.#tokens = null;
  }

  /** Reads the console's configuration and the provider's discovery document. */
  static async open() {
    const config = await (await fetch('config.json')).json();
    const response = await fetch(`${config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
    if (!response.ok) throw new SignInError(`The identity provider answered ${response.status}.`);
    return new Session(config, await response.json());
  }

  get config() {
    return this.#config;
  }

  get redirectUri() {
    return `${location.origin}${this.#config.redirectPath}`;
  }

  get signedIn() {
    return this.#tokens !== null;
  }

  /** This tab was signed in before the page was loaded again: sign in again through the provider's session. */
  get resumable() {
    return sessionStorage.getItem(RESUME) !== null;
  }

  /** Who is signed in, as the ID token says. */
  get person() {
    const claims = this.#tokens?.claims ?? {};
    return { name: claims.name ?? claims.email ?? claims.sub ?? '', email: claims.email ?? '' };
  }

  /** Sends the browser to the provider; `returnTo` (a `#/…` route) is restored after. */
  async signIn(returnTo = location.hash) {
    sessionStorage.removeItem(RESUME);
    const pending = { verifier: random(), state: random(16), nonce: random(16), returnTo };
    sessionStorage.setItem(PENDING, JSON.stringify(pending));
    const url = new URL(this.#provider.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.#config.clientId,
      redirect_uri: this.redirectUri,
      scope: this.#config.scope,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await challengeOf(pending.verifier),
      code_challenge_method: 'S256',
    }).toString();
    location.assign(url.href);
  }

  /** Finishes a sign-in when the provider sent the browser back here; returns the route to show. */
  async completeSignIn() {
    const query = new URLSearchParams(location.search);
    if (!query.has('code') && !query.has('error')) return undefined;
    const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null');
    sessionStorage.removeItem(PENDING);
    history.replaceState(null, '', `${this.#config.redirectPath}${pending?.returnTo ?? ''}`);
    if (query.has('error')) throw new SignInError(query.get('error_description') ?? query.get('error'));
    if (!pending || query.get('state') !== pending.state)
      throw new SignInError('The sign-in answer did not match this tab; sign in again.');
    await this.#grant({
      grant_type: 'authorization_code',
      code: query.get('code'),
      redirect_uri: this.redirectUri,
      code_verifier: pending.verifier,
    });
    if (this.#tokens.claims.nonce !== pending.nonce) {
      this.#forget();
      throw new SignInError('The sign-in answer did not match this tab; sign in again.');
    }
    sessionStorage.setItem(RESUME, '1');
    return pending.returnTo;
  }

  /** A valid access token, refreshed when it is about to expire (or `force`d); null once signed out. */
  async accessToken(force = false) {
    if (!this.#tokens) return null;
    if (!force && this.#tokens.expiresAt - 60_000 > Date.now()) return this.#tokens.accessToken;
    if (!this.#tokens.refreshToken) {
      this.#forget();
      return null;
    }
    this.#refreshing ??= this.#grant({ grant_type: 'refresh_token', refresh_token: this.#tokens.refreshToken })
      .catch(() => this.#forget())
      .finally(() => (this.#refreshing = undefined));
    await this.#refreshing;
    return this.#tokens?.accessToken ?? null;
  }

  /** Forgets the tokens and ends the provider's session too (RP-initiated logout), coming back here. */
  signOut() {
    const idToken = this.#tokens?.idToken;
    this.#forget();
    const end = this.#provider.end_session_endpoint;
    if (!end || !idToken) return location.assign(this.redirectUri);
    const url = new URL(end);
    url.search = new URLSearchParams({
      id_token_hint: idToken,
      client_id: this.#config.clientId,
      post_logout_redirect_uri: this.redirectUri,
    }).toString();
    location.assign(url.href);
  }

  async #grant(parameters) {
    const response = await fetch(this.#provider.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ client_id: this.#config.clientId, ...parameters }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new SignInError(body.error_description ?? body.error ?? `The token endpoint answered ${response.status}.`);
    const previous = this.#tokens ?? {};
    this.#tokens = {
      accessToken: body.access_token,
      refreshToken: body.refresh_token ?? previous.refreshToken,
      idToken: body.id_token ?? previous.idToken,
      claims: body.id_token ? claimsOf(body.id_token) : (previous.claims ?? {}),
      expiresAt: Date.now() + (Number(body.expires_in) || 300) * 1000,
    };
  }

  #forget() {
    this.#tokens = null;
    sessionStorage.removeItem(RESUME);
  }
}
