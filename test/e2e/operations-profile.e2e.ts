import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, Mailbox } from '../support/mailbox.js';
import { call, login, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * The profile and the change of e-mail address (seed 001, part C, later phase) over REST with
 * a real SMTP server: the change takes effect only through the link mailed to the new address,
 * and the old address is told without being given any link.
 */

let stack: TestStack;
let mailbox: Mailbox;
let database: pg.Client;

const PASSWORD = 'profile-password-1';
const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.org`;

/** A registered, verified and signed-in account. */
async function newAccount(name: string): Promise<{ email: string; session: Session }> {
  const email = address(name);
  const registered = await call(stack, null, 'POST', '/api/v1/iam/register', {
    name,
    email,
    password: PASSWORD,
    company_size: '11-50',
    industry: 'mining',
  });
  expect(registered.status).toBe(201);
  const verify = linkIn(await mailbox.next(email, /verify/i), '/api/v1/iam/verify-email/');
  expect((await stack.fetch(new URL(verify).pathname)).status).toBe(200);
  return { email, session: await login(stack, email, PASSWORD) };
}

const pathOf = (link: string) => new URL(link).pathname;

beforeAll(async () => {
  mailbox = await Mailbox.start();
  stack = await startStack({ SMTP_URL: mailbox.url });
  database = new pg.Client({ connectionString: stack.databaseUrl });
  await database.connect();
}, 120_000);

afterAll(async () => {
  await database?.end();
  await stack?.stop();
  await mailbox?.stop();
});

describe('the profile', () => {
  it('shows the name and registration answers, and changes only the fields sent (null clears an answer)', async () => {
    const { email, session } = await newAccount('Profiled');
    const shown = await call(stack, session, 'GET', '/api/v1/iam/profile');
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      id: session.userId,
      email,
      pending_email: null,
      email_verified: true,
      name: 'Profiled',
      default_plan: null,
      company_size: '11-50',
      industry: 'mining',
      management_experience: null,
      heard_about_us: null,
      created_at: expect.any(String),
    });

    const edited = await call(stack, session, 'PATCH', '/api/v1/iam/profile', {
      name: 'Renamed',
      industry: null,
      heard_about_us: 'a colleague',
      default_plan: 'pro',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      name: 'Renamed',
      company_size: '11-50',
      industry: null,
      heard_about_us: 'a colleague',
      default_plan: 'pro',
      email,
    });
    expect((await call(stack, session, 'GET', '/api/v1/iam/profile')).body).toEqual(edited.body);
    expect((await call(stack, session, 'GET', '/api/v1/iam/me')).body.user.name).toBe('Renamed');
  });

  it('refuses fields a user may not edit about themselves, bad values, and a caller without a session', async () => {
    const { session } = await newAccount('Strict');
    const roles = await call(stack, session, 'PATCH', '/api/v1/iam/profile', { roles: ['Admin'] });
    expect(roles.status).toBe(422);
    expect(roles.body.errors.map((error: { field: string }) => error.field)).toEqual(['roles']);
    const email = await call(stack, session, 'PATCH', '/api/v1/iam/profile', { email: address('sneaky') });
    expect(email.status).toBe(422);
    const empty = await call(stack, session, 'PATCH', '/api/v1/iam/profile', { name: '', default_plan: 'platinum' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['default_plan', 'name']);
    expect((await call(stack, null, 'GET', '/api/v1/iam/profile')).status).toBe(401);
    expect((await call(stack, null, 'PATCH', '/api/v1/iam/profile', { name: 'Nobody' })).status).toBe(401);
  });
});

describe('a change of e-mail address', () => {
  it('takes effect only when the link mailed to the new address is followed; the old address is told, without a link', async () => {
    const { email, session } = await newAccount('Mover');
    const next = address('moved');
    const before = mailbox.count;
    const asked = await call(stack, session, 'POST', '/api/v1/iam/email', { new_email: next, password: PASSWORD });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ accepted: true, pending_email: next });

    const notice = await mailbox.next(email, /change of your e-mail address was requested/i, before);
    expect(notice.text).toContain(next);
    expect(notice.text).not.toMatch(/https?:\/\//);
    const confirmation = await mailbox.next(next, /confirm your new e-mail address/i, before);
    const link = linkIn(confirmation, '/api/v1/iam/email-changes/');

    // Nothing changed yet: the old address still signs in, the new one does not.
    expect((await call(stack, session, 'GET', '/api/v1/iam/profile')).body).toMatchObject({ email, pending_email: next });
    expect((await call(stack, null, 'POST', '/api/v1/iam/login', { email: next, password: PASSWORD })).status).toBe(401);

    const confirmed = await stack.fetch(pathOf(link));
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ done: true, email: next });
    const done = await mailbox.next(email, /your e-mail address was changed/i, before);
    expect(done.text).toContain(next);
    expect(done.text).not.toMatch(/https?:\/\//);

    expect((await call(stack, session, 'GET', '/api/v1/iam/profile')).body).toMatchObject({ email: next, pending_email: null });
    expect((await call(stack, null, 'POST', '/api/v1/iam/login', { email: next, password: PASSWORD })).status).toBe(200);
    expect((await call(stack, null, 'POST', '/api/v1/iam/login', { email, password: PASSWORD })).status).toBe(401);

    const again = await stack.fetch(pathOf(link));
    expect(again.status).toBe(410);
    expect(((await again.json()) as { code: string }).code).toBe('LINK_INVALID');
  });

  it('refuses a wrong password, a taken address and the current one, each as a declared problem', async () => {
    const { email, session } = await newAccount('Refused');
    const other = await newAccount('Holder');
    const before = mailbox.count;

    const wrong = await call(stack, session, 'POST', '/api/v1/iam/email', {
      new_email: address('elsewhere'),
      password: 'not-the-password',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 'PASSWORD_WRONG', errors: [{ field: 'password', message: expect.any(String) }] });

    const taken = await call(stack, session, 'POST', '/api/v1/iam/email', { new_email: other.email.toUpperCase(), password: PASSWORD });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('USER_EMAIL_TAKEN');

    const same = await call(stack, session, 'POST', '/api/v1/iam/email', { new_email: email, password: PASSWORD });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual([{ field: 'new_email', message: 'is the current address' }]);

    expect(mailbox.mails.slice(before).filter((mail) => /e-mail address/i.test(mail.subject))).toEqual([]);
    expect((await call(stack, session, 'GET', '/api/v1/iam/profile')).body.pending_email).toBeNull();
  });

  it('refuses at confirmation an address taken meanwhile (the link kept), an expired link and one a newer request replaced', async () => {
    const { session } = await newAccount('Late');
    const wanted = address('wanted');
    let mark = mailbox.count;
    await call(stack, session, 'POST', '/api/v1/iam/email', { new_email: wanted, password: PASSWORD });
    const first = linkIn(await mailbox.next(wanted, /confirm/i, mark), '/api/v1/iam/email-changes/');

    // Someone registers the address before the link is followed.
    expect((await call(stack, null, 'POST', '/api/v1/iam/register', { name: 'Quick', email: wanted, password: PASSWORD })).status).toBe(
      201,
    );
    const taken = await stack.fetch(pathOf(first));
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { code: string }).code).toBe('USER_EMAIL_TAKEN');
    expect((await call(stack, session, 'GET', '/api/v1/iam/profile')).body.email).not.toBe(wanted);
    // Nothing changed, so the link was not spent: once the address is free again it works.
    await database.query(`delete from operations.app_user where lower(email) = lower($1)`, [wanted]);
    expect((await stack.fetch(pathOf(first))).status).toBe(200);
    expect((await call(stack, session, 'GET', '/api/v1/iam/profile')).body.email).toBe(wanted);

    const later = address('later');
    mark = mailbox.count;
    await call(stack, session, 'POST', '/api/v1/iam/email', { new_email: later, password: PASSWORD });
    const expiring = linkIn(await mailbox.next(later, /confirm/i, mark), '/api/v1/iam/email-changes/');
    await database.query(
      `update operations.account_token set expires_at = now() - interval '1 minute' where user_id = $1 and purpose = 'change_email' and used_at is null`,
      [session.userId],
    );
    const expired = await stack.fetch(pathOf(expiring));
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { code: string }).code).toBe('LINK_INVALID');
    expect((await call(stack, session, 'GET', '/api/v1/iam/profile')).body.pending_email).toBeNull();

    const older = address('older');
    const newer = address('newer');
    mark = mailbox.count;
    await call(stack, session, 'POST', '/api/v1/iam/email', { new_email: older, password: PASSWORD });
    const replaced = linkIn(await mailbox.next(older, /confirm/i, mark), '/api/v1/iam/email-changes/');
    await call(stack, session, 'POST', '/api/v1/iam/email', { new_email: newer, password: PASSWORD });
    expect((await call(stack, session, 'GET', '/api/v1/iam/profile')).body.pending_email).toBe(newer);
    expect((await stack.fetch(pathOf(replaced))).status).toBe(410);
  });
});
