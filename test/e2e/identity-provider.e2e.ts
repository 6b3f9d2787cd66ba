import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, decodeJwt, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import * as client from 'openid-client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokenError, OidcTokenVerifier, OidcTokenVerifiers } from '../../subgraphs/shared/oidc-token-verifier.js';
import { Mailbox } from '../support/mailbox.js';
import { Browser as OidcBrowser, decodeEntities } from '../support/oidc-browser.js';
import { call, DEMO_PASSWORD, demoEmail, login, OPERATIONS_ENV, SUPER_ADMIN, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * The operations service as an OpenID provider, driven the way the research workspace's web
 * client will: `openid-client` discovers our issuer, sends the browser to the authorization
 * endpoint with PKCE, the person signs in on our pages (driven here over HTTP with a cookie
 * jar), the code is exchanged, the ID token checked, the JWT access token verified with the
 * issuer's JWKS and used on a protected route, and the refresh token rotated.
 */

let stack: TestStack;
let mailbox: Mailbox;
let root: Session;
let issuer: string;
let workspace: string;
/** A research-style resource server: `/api/chat/whoami` guarded by the shared verifier. */
let resourceServer: Server;
let resourceUrl: string;
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const SECRETS_KEY = randomBytes(32).toString('base64');

async function startResourceServer(): Promise<void> {
  const verifier = new OidcTokenVerifier({ issuer, audience: workspace });
  resourceServer = createServer((request, response) => {
    const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    if (request.url !== '/api/chat/whoami') return reply(404, { error: 'not_found' });
    if (!token) return reply(401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer' });
    verifier.verify(token).then(
      (verified) => reply(200, { sub: verified.subject, scopes: verified.scopes, org: verified.claims.org, roles: verified.claims.roles }),
      (error: unknown) =>
        reply(error instanceof AccessTokenError && error.reason === 'invalid_token' ? 401 : 503, { error: (error as Error).message }),
    );
  });
  await new Promise<void>((resolve) => resourceServer.listen(0, '127.0.0.1', resolve));
  resourceUrl = `http://127.0.0.1:${(resourceServer.address() as AddressInfo).port}/api/chat/whoami`;
}

beforeAll(async () => {
  mailbox = await Mailbox.start();
  stack = await startStack({ ...OPERATIONS_ENV, SMTP_URL: mailbox.url, SECRETS_KEY });
  issuer = `${stack.url}/oidc`;
  workspace = `${stack.url}/api/chat`;
  root = await login(stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
  await startResourceServer();
});
afterAll(async () => {
  await stack?.stop();
  await mailbox?.stop();
  await new Promise<void>((resolve) => (resourceServer ? resourceServer.close(() => resolve()) : resolve()));
});

/** A browser inside the stack's origin. */
class Browser extends OidcBrowser {
  constructor() {
    super(stack.url);
  }
}

interface RegisteredClient {
  readonly client_id: string;
  readonly client_secret: string | null;
}

async function registerClient(body: Record<string, unknown> = {}): Promise<RegisteredClient> {
  const response = await call(stack, root, 'POST', '/api/v1/iam/oidc-clients', {
    name: 'Research workspace',
    redirect_uris: [REDIRECT_URI],
    ...body,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as RegisteredClient;
}

const discover = (registered: RegisteredClient) =>
  client.discovery(
    new URL(issuer),
    registered.client_id,
    undefined,
    registered.client_secret ? client.ClientSecretBasic(registered.client_secret) : client.None(),
    { execute: [client.allowInsecureRequests] },
  );

/** Starts a sign-in as a research-style client: PKCE S256, state and nonce. */
async function authorization(configuration: client.Configuration, scope = 'openid email profile workspace offline_access') {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: REDIRECT_URI,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, verifier, state, nonce };
}

const exchange = (configuration: client.Configuration, callback: URL, started: Awaited<ReturnType<typeof authorization>>) =>
  client.authorizationCodeGrant(configuration, callback, {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
    expectedNonce: started.nonce,
    idTokenExpected: true,
  });

const whoami = (token: string) => fetch(resourceUrl, { headers: { authorization: `Bearer ${token}` } });

describe('discovery', () => {
  it('publishes the issuer under the bound origin with every endpoint below it, whatever Host the request names', async () => {
    const response = await fetch(`${issuer}/.well-known/openid-configuration`, { headers: { host: 'evil.example' } });
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, unknown>;
    expect(document.issuer).toBe(issuer);
    for (const endpoint of [
      'authorization_endpoint',
      'token_endpoint',
      'jwks_uri',
      'userinfo_endpoint',
      'revocation_endpoint',
      'end_session_endpoint',
    ]) {
      expect(String(document[endpoint]), endpoint).toMatch(new RegExp(`^${issuer}/`));
    }
    expect(document).toMatchObject({
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      grant_types_supported: expect.arrayContaining(['authorization_code', 'refresh_token']),
      token_endpoint_auth_methods_supported: expect.arrayContaining(['none', 'client_secret_basic']),
      scopes_supported: expect.arrayContaining(['openid', 'email', 'profile', 'workspace', 'offline_access']),
    });
    const jwks = (await (await fetch(String(document.jwks_uri))).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) expect(key.d, 'no private part').toBeUndefined();
  });

  it('keeps its keys sealed in the database', async () => {
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ use: string; sealed: string }>('select "use", "sealed" from operations.oidc_key');
      expect(rows.map((row) => row.use).sort()).toEqual(['cookie', 'signing']);
      for (const row of rows) expect(row.sealed).toMatch(/^v1\./);
    } finally {
      await db.end();
    }
  });
});

describe('client registration', () => {
  it('is for the platform super-admin only', async () => {
    const admin = await login(stack, demoEmail('Admin'));
    const created = await call(stack, admin, 'POST', '/api/v1/iam/oidc-clients', { name: 'Mine', redirect_uris: [REDIRECT_URI] });
    expect(created.status).toBe(403);
    expect(created.body.code).toBe('ROLE_FORBIDDEN');
    expect((await call(stack, admin, 'GET', '/api/v1/iam/oidc-clients')).status).toBe(403);
    expect((await call(stack, null, 'GET', '/api/v1/iam/oidc-clients')).status).toBe(401);
  });

  it('accepts https redirect URIs and http on loopback only, and never shows a secret again', async () => {
    for (const uri of ['http://example.org/callback', 'https://example.org/cb#fragment', 'ftp://example.org/', 'not a url']) {
      const refused = await call(stack, root, 'POST', '/api/v1/iam/oidc-clients', { name: 'Bad', redirect_uris: [uri] });
      expect(refused.status, uri).toBe(422);
    }
    const confidential = await registerClient({ public: false, redirect_uris: ['https://research.example.org/callback'] });
    expect(confidential).toMatchObject({ public: false, token_endpoint_auth_method: 'client_secret_basic' });
    expect(confidential.client_secret).toMatch(/^qcs_[A-Za-z0-9_-]{43}$/);
    const read = await call(stack, root, 'GET', `/api/v1/iam/oidc-clients/${confidential.client_id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ grant_types: ['authorization_code', 'refresh_token'], scopes: expect.arrayContaining(['openid']) });
    expect(JSON.stringify(read.body)).not.toContain(confidential.client_secret!);
    const listed = await call(stack, root, 'GET', '/api/v1/iam/oidc-clients');
    expect(listed.body.items.map((item: { client_id: string }) => item.client_id)).toContain(confidential.client_id);
    expect(JSON.stringify(listed.body)).not.toContain('qcs_');
    expect((await call(stack, root, 'GET', '/api/v1/iam/oidc-clients/unknown-client')).body.code).toBe('OIDC_CLIENT_NOT_FOUND');
  });
});

describe('a research-style client', () => {
  it('signs a person in with authorization code + PKCE, calls a protected route with the access token, and rotates the refresh token', async () => {
    const registered = await registerClient();
    expect(registered).toMatchObject({ public: true, token_endpoint_auth_method: 'none', client_secret: null });
    const configuration = await discover(registered);
    const started = await authorization(configuration);
    const browser = new Browser();
    const loginPage = await browser.visit(started.url);
    expect(loginPage.status).toBe(200);
    expect(loginPage.html).toContain('Research workspace');
    const signedIn = await browser.submit(loginPage, 'login', { email: demoEmail('Engineer'), password: DEMO_PASSWORD });
    expect(signedIn.callback?.href).toMatch(new RegExp(`^${REDIRECT_URI}\\?`));
    expect(signedIn.callback!.searchParams.get('code')).toBeTruthy();

    const tokens = await exchange(configuration, signedIn.callback!, started);
    const engineer = await login(stack, demoEmail('Engineer'));
    expect(tokens.claims()).toMatchObject({
      iss: issuer,
      aud: registered.client_id,
      sub: engineer.userId,
      email: demoEmail('Engineer'),
      email_verified: true,
      name: expect.any(String),
      org: engineer.organizationId,
      roles: ['Engineer'],
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(900);

    // The access token is a JWT for the research workspace API, verifiable with the issuer's JWKS.
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(`${issuer}/jwks`)), {
      issuer,
      audience: workspace,
      typ: 'at+jwt',
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({
      sub: engineer.userId,
      client_id: registered.client_id,
      scope: 'workspace',
      org: engineer.organizationId,
    });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(900);

    const protectedRoute = await whoami(tokens.access_token);
    expect(protectedRoute.status).toBe(200);
    expect(await protectedRoute.json()).toEqual({
      sub: engineer.userId,
      scopes: ['workspace'],
      org: engineer.organizationId,
      roles: ['Engineer'],
    });
    expect((await whoami(`${tokens.access_token.slice(0, -4)}AAAA`)).status).toBe(401);
    expect((await whoami(tokens.claims() ? (tokens.id_token as string) : '')).status).toBe(401); // an ID token is not an access token

    // The shared verifier trusts the issuers it is given, chosen by `iss`, and nothing else.
    const trusted = new OidcTokenVerifiers([{ issuer, audience: workspace }]);
    expect(await trusted.verify(tokens.access_token)).toMatchObject({ issuer, subject: engineer.userId, clientId: registered.client_id });
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ scope: 'workspace' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
      .setIssuer('https://issuer.example.org')
      .setAudience(workspace)
      .setSubject(engineer.userId)
      .setExpirationTime('5m')
      .sign(privateKey);
    await expect(trusted.verify(forged)).rejects.toMatchObject({ reason: 'invalid_token', message: 'the token’s issuer is not trusted' });
    const elsewhere = new OidcTokenVerifier({ issuer, audience: 'https://another.example.org/api' });
    await expect(elsewhere.verify(tokens.access_token)).rejects.toMatchObject({ reason: 'invalid_token' });

    // Refresh tokens rotate; a spent one is refused (and ends the grant).
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await client.refreshTokenGrant(configuration, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ sub: engineer.userId, aud: workspace });
    expect((await whoami(refreshed.access_token)).status).toBe(200);
    await expect(client.refreshTokenGrant(configuration, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.refreshTokenGrant(configuration, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('shows the generic message for a wrong password and issues no code', async () => {
    const configuration = await discover(await registerClient());
    const started = await authorization(configuration);
    const browser = new Browser();
    const page = await browser.visit(started.url);
    const wrong = await browser.submit(page, 'login', { email: demoEmail('CEO'), password: 'not-the-password' });
    const unknown = await browser.submit(page, 'login', { email: 'nobody@example.org', password: 'not-the-password' });
    for (const answer of [wrong, unknown]) {
      expect(answer.callback).toBeUndefined();
      expect(answer.status).toBe(401);
      expect(answer.html).toContain('The e-mail address or password is wrong.');
    }
    // The history has the refused attempt, like a REST sign-in's.
    const ceo = await login(stack, demoEmail('CEO'));
    const history = await call(stack, ceo, 'GET', '/api/v1/iam/login-history');
    expect(history.body.items.some((item: { outcome: string }) => item.outcome === 'invalid_credentials')).toBe(true);
  });

  it('counts its attempts with the REST sign-in’s, under the same limits', async () => {
    const configuration = await discover(await registerClient());
    const browser = new Browser();
    const page = await browser.visit((await authorization(configuration)).url);
    const email = 'Throttled.Person@example.org';
    for (let attempt = 0; attempt < 19; attempt += 1) {
      expect((await browser.submit(page, 'login', { email, password: 'wrong-password' })).status).toBe(401);
    }
    // The 20th attempt, over REST, is the last one allowed for this address (iamLogin: 20 per 15 minutes and e-mail).
    expect((await call(stack, null, 'POST', '/api/v1/iam/login', { email: email.toLowerCase(), password: 'wrong-password' })).status).toBe(
      401,
    );
    const limited = await browser.submit(page, 'login', { email, password: 'wrong-password' });
    expect(limited.status).toBe(429);
    expect(limited.html).toMatch(/Too many attempts; retry after \d+ s\./);
    const rest = await call(stack, null, 'POST', '/api/v1/iam/login', { email, password: 'wrong-password' });
    expect(rest.status).toBe(429);
    expect(rest.body.code).toBe('ATTEMPTS_LIMITED');
  });

  it('signs the person out of the provider when the client asks (RP-initiated logout)', async () => {
    const signedOut = 'http://127.0.0.1:9/signed-out';
    const configuration = await discover(await registerClient({ post_logout_redirect_uris: [signedOut] }));
    const browser = new Browser();
    const started = await authorization(configuration, 'openid email');
    const done = await browser.submit(await browser.visit(started.url), 'login', { email: demoEmail('CEO'), password: DEMO_PASSWORD });
    const tokens = await exchange(configuration, done.callback!, started);
    expect(tokens.refresh_token).toBeUndefined();
    const end = client.buildEndSessionUrl(configuration, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: signedOut,
      state: 'bye',
    });
    const confirm = await browser.visit(end);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Sign out of Qantara?');
    const form = /<form id="op.logoutForm" method="post" action="([^"]+)"><input type="hidden" name="xsrf" value="([^"]+)"/.exec(
      confirm.html,
    )!;
    const out = await browser.visit(new URL(decodeEntities(form[1]!), confirm.url), { xsrf: form[2]!, logout: 'yes' });
    expect(out.callback?.href).toBe(`${signedOut}?state=bye`);
    const again = await browser.visit((await authorization(configuration, 'openid')).url);
    expect(again.callback).toBeUndefined();
    expect(again.html).toContain('name="password"');
  });

  it('asks for the mailed code when the account has an e-mail second factor, and issues a code only after it', async () => {
    const email = demoEmail('Supply');
    const supply = await login(stack, email);
    const enabled = await call(stack, supply, 'POST', '/api/v1/iam/two-factor/email', { enabled: true, password: DEMO_PASSWORD });
    expect(enabled.status).toBe(200);
    const configuration = await discover(await registerClient());
    const started = await authorization(configuration);
    const browser = new Browser();
    const before = mailbox.count;
    const codePage = await browser.submit(await browser.visit(started.url), 'login', { email, password: DEMO_PASSWORD });
    expect(codePage.callback).toBeUndefined();
    expect(codePage.status).toBe(200);
    expect(codePage.html).toContain('name="code"');
    const mailed = await signInCode(email, before);

    const wrong = await browser.submit(codePage, 'second-factor', { method: 'email', code: '000000' === mailed ? '111111' : '000000' });
    expect(wrong.callback).toBeUndefined();
    expect(wrong.html).toMatch(/The code is wrong or expired; \d tries left\./);

    const resent = await browser.submit(codePage, 'resend', {});
    expect(resent.html).toContain('A new code is on its way');
    const fresh = await signInCode(email, before + 1);
    const stale = await browser.submit(resent, 'second-factor', { method: 'email', code: mailed === fresh ? '000000' : mailed });
    expect(stale.callback).toBeUndefined();

    const done = await browser.submit(resent, 'second-factor', { method: 'email', code: fresh });
    expect(done.callback?.searchParams.get('code')).toBeTruthy();
    const tokens = await exchange(configuration, done.callback!, started);
    expect(tokens.claims()).toMatchObject({ sub: supply.userId, amr: ['pwd', 'mfa', 'otp'] });
    await call(stack, supply, 'POST', '/api/v1/iam/two-factor/email', { enabled: false, password: DEMO_PASSWORD });
  });

  it('refuses an unregistered redirect URI and a request without PKCE', async () => {
    const registered = await registerClient();
    const configuration = await discover(registered);
    const browser = new Browser();
    const elsewhere = new URL((await authorization(configuration)).url);
    elsewhere.searchParams.set('redirect_uri', 'http://127.0.0.1:9/elsewhere');
    const refused = await browser.visit(elsewhere);
    expect(refused.callback).toBeUndefined();
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('redirect_uri');

    const withoutPkce = client.buildAuthorizationUrl(configuration, { redirect_uri: REDIRECT_URI, scope: 'openid', state: 'xyz' });
    const answer = await browser.visit(withoutPkce);
    expect(answer.callback?.searchParams.get('error')).toBe('invalid_request');
    expect(answer.callback?.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(answer.callback?.searchParams.get('code')).toBeNull();
  });

  it('serves a confidential client with its secret, reusing the person’s session without asking again', async () => {
    const browser = new Browser();
    const publicClient = await discover(await registerClient());
    const first = await authorization(publicClient);
    const signedIn = await browser.submit(await browser.visit(first.url), 'login', { email: demoEmail('Admin'), password: DEMO_PASSWORD });
    expect(signedIn.callback).toBeDefined();

    const registered = await registerClient({ public: false });
    const confidential = await discover(registered);
    const second = await authorization(confidential);
    const again = await browser.visit(second.url);
    expect(again.callback?.searchParams.get('code')).toBeTruthy();
    const tokens = await exchange(confidential, again.callback!, second);
    expect(tokens.claims()?.email).toBe(demoEmail('Admin'));
    const wrongSecret = await client.discovery(new URL(issuer), registered.client_id, undefined, client.ClientSecretBasic('qcs_wrong'), {
      execute: [client.allowInsecureRequests],
    });
    await expect(client.refreshTokenGrant(wrongSecret, tokens.refresh_token!)).rejects.toMatchObject({
      status: 401,
      cause: [{ scheme: 'basic', parameters: { error: 'invalid_client' } }],
    });
    expect((await client.refreshTokenGrant(confidential, tokens.refresh_token!)).refresh_token).toBeTruthy();
  });

  it('stops a removed client and a banned person at once', async () => {
    const user = await call(stack, await login(stack, demoEmail('Admin')), 'POST', '/api/v1/iam/users', {
      email: 'oidc.person@example.org',
      password: 'person-password',
      name: 'OIDC Person',
      roles: ['Engineer'],
    });
    expect(user.status).toBe(201);
    const signIn = async (configuration: client.Configuration) => {
      const started = await authorization(configuration);
      const browser = new Browser();
      const done = await browser.submit(await browser.visit(started.url), 'login', {
        email: 'oidc.person@example.org',
        password: 'person-password',
      });
      return exchange(configuration, done.callback!, started);
    };

    const removable = await registerClient();
    const removableConfiguration = await discover(removable);
    const removableTokens = await signIn(removableConfiguration);
    const removed = await call(stack, root, 'DELETE', `/api/v1/iam/oidc-clients/${removable.client_id}`);
    expect(removed.status).toBe(200);
    await expect(client.refreshTokenGrant(removableConfiguration, removableTokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_client',
    });
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('select 1 from operations.oidc_payload where client_id = $1', [removable.client_id]);
      expect(rows).toEqual([]);

      const configuration = await discover(await registerClient());
      const tokens = await signIn(configuration);
      await db.query(`update operations.app_user set banned_at = now() where email = 'oidc.person@example.org'`);
      await expect(client.refreshTokenGrant(configuration, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
      const started = await authorization(configuration);
      const browser = new Browser();
      const banned = await browser.submit(await browser.visit(started.url), 'login', {
        email: 'oidc.person@example.org',
        password: 'person-password',
      });
      expect(banned.callback).toBeUndefined();
      expect(banned.status).toBe(403);
      expect(banned.html).toContain('banned');
    } finally {
      await db.end();
    }
  });
});

describe('several instances', () => {
  it('share keys and sessions: a second process on the same database publishes the same JWKS and finishes a sign-in the first began', async () => {
    const second = await startStack({ ...OPERATIONS_ENV, DATABASE_URL: stack.databaseUrl, SECRETS_KEY });
    try {
      const keys = async (base: string) => ((await (await fetch(`${base}/oidc/jwks`)).json()) as { keys: unknown[] }).keys;
      expect(await keys(second.url)).toEqual(await keys(stack.url));

      const configuration = await discover(await registerClient());
      const started = await authorization(configuration);
      const browser = new Browser();
      const page = await browser.visit(started.url);
      // The same form, posted to the other instance: its interaction and cookies are shared.
      const action = decodeEntities(/<form method="post" action="([^"]+\/login)"/.exec(page.html)![1]!);
      const done = await browser.visit(new URL(action, second.url), { email: demoEmail('Foreman'), password: DEMO_PASSWORD });
      expect(done.callback?.searchParams.get('code')).toBeTruthy();
      const tokens = await exchange(configuration, done.callback!, started);
      expect((await whoami(tokens.access_token)).status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});

/** The code of the newest sign-in code mail to `to` after the first `after` mails. */
async function signInCode(to: string, after: number): Promise<string> {
  const mail = await mailbox.next(to, /sign-in code/, after);
  return /(\d{6})/.exec(mail.subject)![1]!;
}
