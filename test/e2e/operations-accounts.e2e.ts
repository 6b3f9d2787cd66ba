import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_CONTRACTS } from '../../contracts/operations/accounts.contract.js';
import { ExternalIdp } from '../support/external-idp.js';
import { challengeVerifier, freePort } from '../support/loopback.js';
import { linkIn, Mailbox } from '../support/mailbox.js';
import { call, demoEmail, fillPath, login, OPERATIONS_ENV, sampleBody, type Call, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Part C of seed 001 end to end: a new user walks every account flow against a real SMTP
 * server and a real OpenID provider on loopback; the client address comes from
 * `X-Forwarded-For` (the stack trusts one proxy), so each flow can sign in from where it needs.
 */

const CHALLENGE_SECRET = 'challenge-secret-for-tests';
const IDP = { name: 'acme', clientId: 'qantara', clientSecret: 'external-client-secret-123' };

let stack: TestStack;
let mailbox: Mailbox;
let idp: ExternalIdp;
let verifier: Awaited<ReturnType<typeof challengeVerifier>>;

const HOME = '203.0.113.10';
const ELSEWHERE = '198.51.100.7';
const from = (ip: string) => ({ 'x-forwarded-for': ip, 'user-agent': 'walk-test/1.0' });
const post = (path: string, body: unknown, ip = HOME, session: Session | null = null) => call(stack, session, 'POST', path, body, from(ip));
const get = (path: string, session: Session | null = null, ip = HOME) => call(stack, session, 'GET', path, undefined, from(ip));
/** Answers a pending sign-in's second-factor challenge with a code of `method`. */
const verify = (challenge_id: string, method: 'totp' | 'email' | 'backup_code', code: string) =>
  post('/api/v1/iam/two-factor/verify', { challenge_id, method, code });
/** A link from a mail, called on the stack (its path and query). */
const follow = (link: string, ip = HOME) => get(new URL(link).pathname + new URL(link).search, null, ip);
const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? new URL(link).pathname.split('/').at(-1)!;
const sessionOf = (response: Call): Session => ({
  token: response.body.access_token,
  refreshToken: response.body.refresh_token,
  userId: response.body.user.id,
  organizationId: response.body.user.organizationId,
});

beforeAll(async () => {
  const port = await freePort();
  [mailbox, verifier, idp] = await Promise.all([
    Mailbox.start(),
    challengeVerifier(CHALLENGE_SECRET),
    ExternalIdp.start({
      clientId: IDP.clientId,
      clientSecret: IDP.clientSecret,
      redirectUris: [`http://127.0.0.1:${port}/api/v1/iam/identity-providers/${IDP.name}/callback`],
    }),
  ]);
  stack = await startStack({
    ...OPERATIONS_ENV,
    PORT: String(port),
    TRUST_PROXY: '1',
    SMTP_URL: mailbox.url,
    CHALLENGE: 'turnstile',
    CHALLENGE_SECRET,
    CHALLENGE_VERIFY_URL: `${verifier.url}/siteverify`,
    OIDC_PROVIDERS: JSON.stringify([{ name: IDP.name, issuer: idp.issuer, clientId: IDP.clientId, clientSecret: IDP.clientSecret }]),
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([mailbox?.stop(), verifier?.stop(), idp?.stop()]);
});

describe('a new user walks every account flow', () => {
  const email = `walker-${randomUUID().slice(0, 8)}@example.org`;
  let password = 'first-password-1';
  let session: Session;
  let totpSecret: string;
  let backupCodes: string[];

  it('registers only past the bot challenge, with no organization, and gets a verification link by SMTP', async () => {
    const body = { name: 'Walker', email, password, referral_code: 'FRIEND', company_size: '11-50', heard_about_us: 'search' };
    const missing = await post('/api/v1/iam/register', body);
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('BOT_CHALLENGE_FAILED');
    expect(missing.body.errors).toEqual([{ field: 'challenge_token', message: expect.any(String) }]);
    expect((await post('/api/v1/iam/register', { ...body, challenge_token: 'robot' })).body.code).toBe('BOT_CHALLENGE_FAILED');

    const registered = await post('/api/v1/iam/register', { ...body, challenge_token: 'pass-1' });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ verification_sent: true, user: { email, name: 'Walker', organizationId: null, roles: [] } });
    const mail = await mailbox.next(email, /verify/i);
    expect(linkIn(mail, '/api/v1/iam/verify-email/')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/iam\/verify-email\/[\w-]{43}$/);

    const again = await post('/api/v1/iam/register', { ...body, challenge_token: 'pass-2' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('USER_EMAIL_TAKEN');
  });

  it('rejects a short password and a malformed e-mail with field messages', async () => {
    const response = await post('/api/v1/iam/register', { name: 'X', email: 'not-an-email', password: 'short', challenge_token: 'pass-x' });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['email', 'password']);
  });

  it('refuses a sign-in whose password is not 8 to 64 characters with 422 and a field message, as the login form does', async () => {
    for (const wrongLength of ['seven-7', 'x'.repeat(65)]) {
      const response = await post('/api/v1/iam/login', { email, password: wrongLength });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([{ field: 'password', message: expect.any(String) }]);
    }
    const malformed = await post('/api/v1/iam/login', { email: 'not-an-email', password: 'long-enough-1' });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toEqual([{ field: 'email', message: expect.any(String) }]);
  });

  it('keeps the account inactive until verified; a resent link replaces the first; a link works once', async () => {
    const wrong = await post('/api/v1/iam/login', { email, password: 'not-the-password' });
    const unknown = await post('/api/v1/iam/login', { email: `nobody-${randomUUID()}@example.org`, password: 'whatever-123' });
    expect(wrong.status).toBe(401);
    expect({ ...wrong.body, instance: undefined }).toEqual({ ...unknown.body, instance: undefined });
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');

    const unverified = await post('/api/v1/iam/login', { email, password });
    expect(unverified.status).toBe(403);
    expect(unverified.body.code).toBe('EMAIL_NOT_VERIFIED');

    const first = linkIn(await mailbox.next(email, /verify/i), '/verify-email/');
    const before = mailbox.count;
    expect((await post('/api/v1/iam/verify-email/resend', { email })).status).toBe(202);
    const second = linkIn(await mailbox.next(email, /verify/i, before), '/verify-email/');
    expect(second).not.toBe(first);
    expect((await follow(first)).body.code).toBe('LINK_INVALID');
    const verified = await follow(second);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ done: true });
    expect((await follow(second)).status).toBe(410);
  });

  it('signs in with tokens, the user and no organizations, and records the attempt with address and browser', async () => {
    const response = await post('/api/v1/iam/login', { email, password });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 15 * 24 * 3600, organizations: [], two_factor: null });
    session = sessionOf(response);
    const history = await get('/api/v1/iam/login-history', session);
    expect(history.body.items[0]).toMatchObject({ ip: HOME, user_agent: 'walk-test/1.0', method: 'password', outcome: 'success' });
    expect(history.body.items.map((item: { outcome: string }) => item.outcome)).toContain('email_not_verified');
    expect(history.body.items.map((item: { outcome: string }) => item.outcome)).toContain('invalid_credentials');
  });

  it('turns the authenticator app on only with a right code and returns ten backup codes', async () => {
    const setup = await post('/api/v1/iam/two-factor/totp/setup', {}, HOME, session);
    expect(setup.status).toBe(200);
    totpSecret = setup.body.secret;
    expect(setup.body.otpauth_url).toContain('otpauth://totp/');
    const wrong = await post('/api/v1/iam/two-factor/totp/enable', { code: '000000' }, HOME, session);
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('TOTP_CODE_INVALID');
    const enabled = await post('/api/v1/iam/two-factor/totp/enable', { code: await generate({ secret: totpSecret }) }, HOME, session);
    expect(enabled.status).toBe(200);
    backupCodes = enabled.body.backup_codes;
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    expect((await get('/api/v1/iam/security', session)).body).toMatchObject({ totp_enabled: true, backup_codes_left: 10 });
  });

  it('withholds every token until the authenticator code passes, naming the user while the second factor is pending', async () => {
    const pending = await post('/api/v1/iam/login', { email, password });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ access_token: null, token_type: null, expires_in: null, organizations: null });
    expect(pending.body.user).toMatchObject({ email: email.toLowerCase(), emailVerified: true });
    expect(pending.body.two_factor.methods).toEqual(['totp', 'backup_code']);
    const challenge = pending.body.two_factor.challenge_id;
    const wrong = await verify(challenge, 'totp', '000000');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('SECOND_FACTOR_INVALID');
    const done = await verify(challenge, 'totp', await generate({ secret: totpSecret }));
    expect(done.status).toBe(200);
    expect(done.body.user.email).toBe(email);
    expect((await get('/api/v1/iam/me', sessionOf(done))).status).toBe(200);
  });

  it('accepts a backup code once', async () => {
    const code = backupCodes[0]!;
    const first = await post('/api/v1/iam/login', { email, password });
    const used = await verify(first.body.two_factor.challenge_id, 'backup_code', code);
    expect(used.status).toBe(200);
    expect(used.body.access_token).toEqual(expect.any(String));
    const second = await post('/api/v1/iam/login', { email, password });
    const reused = await verify(second.body.two_factor.challenge_id, 'backup_code', code);
    expect(reused.status).toBe(401);
    expect((await get('/api/v1/iam/security', session)).body.backup_codes_left).toBe(9);
  });

  it('ends a pending sign-in after five wrong codes, even for a right sixth', async () => {
    const pending = await post('/api/v1/iam/login', { email, password });
    const challenge_id = pending.body.two_factor.challenge_id;
    const left: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await verify(challenge_id, 'totp', '000000');
      expect(wrong.body.code).toBe('SECOND_FACTOR_INVALID');
      left.push(wrong.body.triesLeft);
    }
    expect(left).toEqual([4, 3, 2, 1, 0]);
    const late = await verify(challenge_id, 'totp', await generate({ secret: totpSecret }));
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('SECOND_FACTOR_CHALLENGE_INVALID');
  });

  it('mails a sign-in code when e-mail codes are on; a resent code replaces the first', async () => {
    const wrongPassword = await post('/api/v1/iam/two-factor/email', { enabled: true, password: 'nope-nope' }, HOME, session);
    expect(wrongPassword.body.code).toBe('PASSWORD_WRONG');
    expect((await post('/api/v1/iam/two-factor/email', { enabled: true, password }, HOME, session)).body.two_factor_email).toBe(true);
    const before = mailbox.count;
    const pending = await post('/api/v1/iam/login', { email, password });
    expect(pending.body.two_factor.methods).toEqual(['email', 'totp', 'backup_code']);
    const challenge_id = pending.body.two_factor.challenge_id;
    const firstCode = /\b(\d{6})\b/.exec((await mailbox.next(email, /sign-in code/i, before)).text)![1]!;
    const resentAt = mailbox.count;
    expect((await post('/api/v1/iam/two-factor/resend', { challenge_id })).status).toBe(202);
    const secondCode = /\b(\d{6})\b/.exec((await mailbox.next(email, /sign-in code/i, resentAt)).text)![1]!;
    if (firstCode !== secondCode) {
      expect((await verify(challenge_id, 'email', firstCode)).status).toBe(401);
    }
    const done = await verify(challenge_id, 'email', secondCode);
    expect(done.status).toBe(200);
    session = sessionOf(done);
    await post('/api/v1/iam/two-factor/email', { enabled: false, password }, HOME, session);
    await post('/api/v1/iam/two-factor/totp/disable', { password }, HOME, session);
    expect((await get('/api/v1/iam/security', session)).body).toMatchObject({
      two_factor_email: false,
      totp_enabled: false,
      backup_codes_left: 0,
    });
  });

  it('blocks a sign-in from an unknown address and lets it in once the mailed link approves it', async () => {
    const on = await post('/api/v1/iam/ip-whitelist', { enabled: true }, HOME, session);
    expect(on.body).toMatchObject({ ip_whitelist: true, allowed_ips: [HOME] });
    const before = mailbox.count;
    const blocked = await post('/api/v1/iam/login', { email, password }, ELSEWHERE);
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('IP_NOT_APPROVED');
    const mail = await mailbox.next(email, /approve/i, before);
    expect(mail.text).toContain(ELSEWHERE);
    const approved = await follow(linkIn(mail, '/ip-approvals/'), '192.0.2.99');
    expect(approved.body).toEqual({ done: true, ip: ELSEWHERE });
    const allowed = await post('/api/v1/iam/login', { email, password }, ELSEWHERE);
    expect(allowed.status).toBe(200);
    expect(allowed.body.access_token).toEqual(expect.any(String));
    expect((await get('/api/v1/iam/login-history', session)).body.items.map((item: { outcome: string }) => item.outcome)).toContain(
      'ip_blocked',
    );
    await post('/api/v1/iam/ip-whitelist', { enabled: false }, HOME, session);
  });

  it('resets the password from a 60-minute link and signs out every other session', async () => {
    const other = sessionOf(await post('/api/v1/iam/login', { email, password }));
    expect((await get('/api/v1/iam/me', other)).status).toBe(200);
    const before = mailbox.count;
    expect((await post('/api/v1/iam/forgot-password', { email })).status).toBe(202);
    expect((await post('/api/v1/iam/forgot-password', { email: `nobody-${randomUUID()}@example.org` })).status).toBe(202);
    const link = linkIn(await mailbox.next(email, /reset/i, before), 'token=');
    password = 'second-password-2';
    expect((await post('/api/v1/iam/reset-password', { token: tokenOf(link), password })).body).toEqual({ done: true });
    expect((await post('/api/v1/iam/reset-password', { token: tokenOf(link), password })).status).toBe(410);
    for (const ended of [session, other]) {
      expect((await get('/api/v1/iam/me', ended)).status).toBe(401);
      expect((await post('/api/v1/iam/refresh', { refresh_token: ended.refreshToken })).status).toBe(401);
    }
    expect((await post('/api/v1/iam/login', { email, password: 'first-password-1' })).status).toBe(401);
    session = sessionOf(await post('/api/v1/iam/login', { email, password }));
  });

  it('rotates the refresh token: the new pair works, the spent token revokes its whole sign-in', async () => {
    const rotated = await post('/api/v1/iam/refresh', { refresh_token: session.refreshToken });
    expect(rotated.status).toBe(200);
    const next = sessionOf(rotated);
    expect(next.refreshToken).not.toBe(session.refreshToken);
    expect((await get('/api/v1/iam/me', next)).status).toBe(200);
    const reused = await post('/api/v1/iam/refresh', { refresh_token: session.refreshToken });
    expect(reused.body.code).toBe('REFRESH_TOKEN_REUSED');
    expect((await get('/api/v1/iam/me', next)).status).toBe(401);
    session = sessionOf(await post('/api/v1/iam/login', { email, password }));
  });

  it('logs out: the current token is revoked at once', async () => {
    expect((await post('/api/v1/iam/logout', {}, HOME, session)).status).toBe(200);
    expect((await get('/api/v1/iam/me', session)).status).toBe(401);
  });
});

describe('invitations', () => {
  it('lets an invited user set a password from the mailed link, which also verifies the address', async () => {
    const admin = await login(stack, demoEmail('Admin'));
    const email = `invitee-${randomUUID().slice(0, 8)}@example.org`;
    const created = await call(stack, admin, 'POST', '/api/v1/iam/users', { email, name: 'Invitee', roles: ['Engineer'] });
    expect(created.status).toBe(201);
    const link = linkIn(await mailbox.next(email, /invited/i), 'token=');
    expect((await post('/api/v1/iam/login', { email, password: 'invited-password' })).status).toBe(401);
    expect((await post('/api/v1/iam/password-set', { token: tokenOf(link), password: 'invited-password' })).body).toEqual({ done: true });
    const signedIn = await post('/api/v1/iam/login', { email, password: 'invited-password' });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.organizations).toHaveLength(1);
  });
});

describe('bans', () => {
  it('refuse a banned user’s sign-in with its own message, end their sessions and keys at once, and lift', async () => {
    const admin = await login(stack, demoEmail('Admin'));
    const email = `banned-${randomUUID().slice(0, 8)}@example.org`;
    const user = await call(stack, admin, 'POST', '/api/v1/iam/users', {
      email,
      password: 'banned-password',
      name: 'B',
      roles: ['Engineer'],
    });
    const session = await login(stack, email, 'banned-password');
    const key = (await call(stack, session, 'POST', '/api/v1/api-keys', { label: 'b' })).body.key;
    expect((await call(stack, null, 'GET', '/api/v1/hr/positions', undefined, { 'x-api-key': key })).status).toBe(200);

    const banned = await call(stack, admin, 'POST', `/api/v1/iam/users/${user.body.id}/ban`);
    expect(banned.body.bannedAt).toEqual(expect.any(String));
    const refused = await post('/api/v1/iam/login', { email, password: 'banned-password' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ACCOUNT_BANNED');
    expect((await post('/api/v1/iam/login', { email, password: 'wrong-password' })).body.code).toBe('INVALID_CREDENTIALS');
    expect((await get('/api/v1/iam/me', session)).status).toBe(401);
    expect((await post('/api/v1/iam/refresh', { refresh_token: session.refreshToken })).status).toBe(401);
    expect((await call(stack, null, 'GET', '/api/v1/hr/positions', undefined, { 'x-api-key': key })).status).toBe(401);
    expect((await call(stack, admin, 'POST', `/api/v1/iam/users/${admin.userId}/ban`)).status).toBe(404);

    expect((await call(stack, admin, 'POST', `/api/v1/iam/users/${user.body.id}/unban`)).body.bannedAt).toBeNull();
    expect((await post('/api/v1/iam/login', { email, password: 'banned-password' })).status).toBe(200);
  });
});

describe('external identity provider', () => {
  const start = async (body: Record<string, unknown> = {}) => {
    const started = await post(`/api/v1/iam/identity-providers/${IDP.name}/authorization`, body);
    expect(started.status).toBe(200);
    return started.body.authorization_url as string;
  };
  /** Our callback, called where the provider sent the browser; returns our redirect. */
  const callBack = async (providerRedirect: string) => {
    const url = new URL(providerRedirect);
    const response = await stack.fetch(url.pathname + url.search, { redirect: 'manual', headers: from(HOME) });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location')!);
  };
  const exchange = async (location: URL) => post('/api/v1/iam/identity-providers/exchange', { code: location.searchParams.get('code') });

  it('lists the configured providers', async () => {
    expect((await get('/api/v1/iam/identity-providers')).body).toEqual({ providers: [{ name: IDP.name, issuer: idp.issuer }] });
  });

  it('links an existing e-mail automatically and signs that user in, with PKCE and state', async () => {
    const engineer = await login(stack, demoEmail('Engineer'));
    idp.people.set('ext-engineer', { email: demoEmail('Engineer'), email_verified: true, name: 'Engineer at Acme' });
    const authorization = new URL(await start({ locale: 'ar', next: '/dashboard' }));
    expect(authorization.origin).toBe(idp.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    const location = await callBack(await idp.signIn(authorization.href, 'ext-engineer'));
    expect(location.pathname).toBe('/ar/login');
    expect(location.searchParams.get('next')).toBe('/dashboard');
    expect(location.searchParams.has('access_token')).toBe(false);
    const signedIn = await exchange(location);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(engineer.userId);
    expect((await exchange(location)).status).toBe(410);
    // The link holds: the same external account signs in as the same user again.
    const again = await exchange(await callBack(await idp.signIn(await start(), 'ext-engineer')));
    expect(again.body.user.id).toBe(engineer.userId);
  });

  it('registers a new e-mail as a verified account with no organization', async () => {
    const email = `newcomer-${randomUUID().slice(0, 8)}@example.org`;
    idp.people.set('ext-new', { email, email_verified: true, name: 'Newcomer' });
    const signedIn = await exchange(await callBack(await idp.signIn(await start(), 'ext-new')));
    expect(signedIn.body.user).toMatchObject({ email, name: 'Newcomer', organizationId: null });
    expect(signedIn.body.organizations).toEqual([]);
  });

  it('applies the second factor and IP checks of a password sign-in', async () => {
    const email = `guarded-${randomUUID().slice(0, 8)}@example.org`;
    idp.people.set('ext-guarded', { email, email_verified: true });
    const first = sessionOf(await exchange(await callBack(await idp.signIn(await start(), 'ext-guarded'))));
    await post('/api/v1/iam/ip-whitelist', { enabled: true }, HOME, first);
    const back = new URL(await idp.signIn(await start(), 'ext-guarded'));
    const elsewhere = await stack.fetch(back.pathname + back.search, { redirect: 'manual', headers: from(ELSEWHERE) });
    expect(new URL(elsewhere.headers.get('location')!).searchParams.get('error')).toBe('ip_not_approved');
    const setup = await post('/api/v1/iam/two-factor/totp/setup', {}, HOME, first);
    await post('/api/v1/iam/two-factor/totp/enable', { code: await generate({ secret: setup.body.secret }) }, HOME, first);
    const pending = await exchange(await callBack(await idp.signIn(await start(), 'ext-guarded')));
    expect(pending.body.access_token).toBeNull();
    expect(pending.body.two_factor.methods).toContain('totp');
  });

  it('redirects failures to the login page with a documented error code', async () => {
    const errorOf = (location: URL) => location.searchParams.get('error');
    idp.people.set('ext-unverified', { email: `unverified-${randomUUID().slice(0, 8)}@example.org`, email_verified: false });
    expect(errorOf(await callBack(await idp.signIn(await start(), 'ext-unverified')))).toBe('email_missing');
    const state = new URL(await start({ locale: 'fr' })).searchParams.get('state');
    const cancelled = await callBack(`${stack.url}/api/v1/iam/identity-providers/${IDP.name}/callback?error=access_denied&state=${state}`);
    expect(cancelled.pathname).toBe('/fr/login');
    expect(errorOf(cancelled)).toBe('consent_cancelled');
    expect(errorOf(await callBack(`${stack.url}/api/v1/iam/identity-providers/${IDP.name}/callback?code=x&state=forged`))).toBe(
      'state_mismatch',
    );
    expect(errorOf(await callBack(`${stack.url}/api/v1/iam/identity-providers/other/callback?code=x&state=y`))).toBe('provider_disabled');
    expect((await post('/api/v1/iam/identity-providers/other/authorization', {})).body.code).toBe('IDENTITY_PROVIDER_UNKNOWN');
  });
});

describe('attempt limits', () => {
  const throttled = ACCOUNT_CONTRACTS.filter((contract) => contract.throttle.length > 0);

  it('covers registration, sign-in, second factor, resends, forgotten passwords and IP approval', () => {
    expect(throttled.map((contract) => contract.name)).toEqual(
      expect.arrayContaining([
        'iamRegister',
        'iamLogin',
        'iamVerifySecondFactor',
        'iamResendSecondFactor',
        'iamResendVerification',
        'iamForgotPassword',
        'iamApproveIp',
      ]),
    );
  });

  /** A request that passes validation, the same every time (so per-field limits count it). */
  const request = (contract: (typeof throttled)[number]) => {
    const values: Record<string, unknown> = {
      name: 'Limit',
      email: `limit-${contract.name.toLowerCase()}@example.org`,
      password: 'password-123',
      token: 'x'.repeat(43),
      code: contract.name === 'iamVerifySecondFactor' ? '000000' : 'x'.repeat(43),
      challenge_id: randomUUID(),
      method: 'totp',
      provider: IDP.name,
    };
    const binding = contract.rest[0]!;
    const body = Object.fromEntries(
      Object.entries(sampleBody(contract)).map(([field, value]) => [field, field in values ? values[field] : value]),
    );
    const path = fillPath(binding.path, Object.fromEntries(Object.entries(values).map(([field, value]) => [field, String(value)])));
    return { method: binding.method, path, body: binding.method === 'GET' ? undefined : body };
  };

  it.each(throttled.map((contract) => [contract.name, contract] as const))(
    '%s answers 429 with Retry-After past its tightest limit',
    async (_name, contract) => {
      const tightest = [...contract.throttle].sort((a, b) => a.limit - b.limit)[0]!;
      const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const { method, path, body } = request(contract);
      const send = () => call(stack, null, method, path, body, from(ip));
      // The counters are fixed windows aligned on the epoch: start the attempts well inside one, so a
      // window that ends midway does not reset the count this test builds up.
      const windowMs = tightest.windowSeconds * 1000;
      const left = windowMs - (Date.now() % windowMs);
      if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 500));
      for (let attempt = 0; attempt < tightest.limit; attempt++) {
        const response = await send();
        const where = `${contract.name}: ${JSON.stringify(response.body)}`;
        expect(response.status, where).not.toBe(429);
        // Past validation (the limit counts admitted attempts); registration then meets the bot challenge.
        if (response.status === 422) expect(response.body.code, where).toBe('BOT_CHALLENGE_FAILED');
      }
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('ATTEMPTS_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(tightest.windowSeconds);
    },
  );
});

describe('active sessions', () => {
  it('lists the account’s sessions with the current one marked, signs out one at once, and every other on request', async () => {
    const first = await login(stack, demoEmail('Engineer'));
    const second = await login(stack, demoEmail('Engineer'));
    const third = await login(stack, demoEmail('Engineer'));
    const currentOf = async (session: Session) => {
      const listed = await call(stack, session, 'GET', '/api/v1/iam/sessions');
      expect(listed.status).toBe(200);
      const current = listed.body.items.filter((item: { current: boolean }) => item.current);
      expect(current).toHaveLength(1);
      return { id: current[0].id as string, items: listed.body.items as Array<{ id: string }> };
    };
    const seen = await currentOf(second);
    const firstId = (await currentOf(first)).id;
    expect(seen.items.map((item) => item.id)).toEqual(expect.arrayContaining([firstId, seen.id, (await currentOf(third)).id]));

    expect((await call(stack, second, 'DELETE', `/api/v1/iam/sessions/${firstId}`)).body).toEqual({ done: true });
    expect((await call(stack, first, 'GET', '/api/v1/iam/me')).status).toBe(401);
    expect((await call(stack, null, 'POST', '/api/v1/iam/refresh', { refresh_token: first.refreshToken })).status).toBe(401);
    expect((await call(stack, second, 'DELETE', `/api/v1/iam/sessions/${firstId}`)).status).toBe(404);

    expect((await call(stack, second, 'DELETE', '/api/v1/iam/sessions')).body).toEqual({ done: true });
    expect((await call(stack, third, 'GET', '/api/v1/iam/me')).status).toBe(401);
    expect((await call(stack, second, 'GET', '/api/v1/iam/me')).status).toBe(200);
    expect((await currentOf(second)).items.map((item) => item.id)).toEqual([seen.id]);
  });
});

describe('change of password', () => {
  it('needs the current password, then signs out every other session and keeps this one', async () => {
    const email = `changer-${randomUUID().slice(0, 8)}@example.org`;
    const admin = await login(stack, demoEmail('Admin'));
    const created = await call(stack, admin, 'POST', '/api/v1/iam/users', {
      email,
      password: 'old-password-1',
      name: 'Changer',
      roles: ['Engineer'],
    });
    expect(created.status).toBe(201);
    const here = await login(stack, email, 'old-password-1');
    const elsewhere = await login(stack, email, 'old-password-1');
    const wrong = await call(stack, here, 'POST', '/api/v1/iam/password', {
      current_password: 'not-it-at-all',
      new_password: 'new-password-1',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('PASSWORD_WRONG');
    const short = await call(stack, here, 'POST', '/api/v1/iam/password', { current_password: 'old-password-1', new_password: 'short' });
    expect(short.status).toBe(422);

    const changed = await call(stack, here, 'POST', '/api/v1/iam/password', {
      current_password: 'old-password-1',
      new_password: 'new-password-1',
    });
    expect(changed.body).toEqual({ done: true });
    expect((await call(stack, elsewhere, 'GET', '/api/v1/iam/me')).status).toBe(401);
    expect((await call(stack, null, 'POST', '/api/v1/iam/refresh', { refresh_token: elsewhere.refreshToken })).status).toBe(401);
    expect((await call(stack, here, 'GET', '/api/v1/iam/me')).status).toBe(200);
    expect((await call(stack, null, 'POST', '/api/v1/iam/login', { email, password: 'old-password-1' })).status).toBe(401);
    expect((await call(stack, null, 'POST', '/api/v1/iam/login', { email, password: 'new-password-1' })).status).toBe(200);
  });
});
