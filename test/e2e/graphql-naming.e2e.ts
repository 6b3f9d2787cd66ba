import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demoEmail, login, OPERATIONS_ENV, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * The graph's names over real HTTP (docs/adr/0040-graphql-naming.md): camelCase fields and
 * arguments answer, the released snake_case names still answer the same values for one
 * release and say so in introspection, and REST bodies keep their documented wire names.
 */

let stack: TestStack;
let admin: Session;

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  admin = await login(stack, demoEmail('Admin'));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

interface LoginFields {
  accessToken?: string | null;
  access_token?: string | null;
  tokenType?: string | null;
  refreshToken?: string | null;
  refresh_token?: string | null;
  expiresIn?: number | null;
  user?: { id: string };
}

const LOGIN = `mutation ($email: String!, $password: String!) {
  iamLogin(email: $email, password: $password) { accessToken tokenType expiresIn refreshToken user { id } }
}`;

async function graphLogin(): Promise<LoginFields> {
  const { body } = await stack.graphql<{ iamLogin: LoginFields }>(LOGIN, { email: demoEmail('Engineer'), password: 'demo-password' });
  expect(body.errors).toBeUndefined();
  return body.data!.iamLogin;
}

describe('camelCase names', () => {
  it('sign in through iamLogin with accessToken, tokenType, expiresIn and refreshToken', async () => {
    const signedIn = await graphLogin();
    expect(signedIn).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: expect.any(Number),
      refreshToken: expect.any(String),
      user: { id: expect.any(String) },
    });
    const me = await stack.graphql<{ iamSecurity: Record<string, unknown> }>(
      '{ iamSecurity { twoFactorEmail totpEnabled backupCodesLeft ipWhitelist allowedIps } }',
      {},
      { authorization: `Bearer ${signedIn.accessToken}` },
    );
    expect(me.body.errors).toBeUndefined();
    expect(me.body.data!.iamSecurity).toEqual({
      twoFactorEmail: false,
      totpEnabled: false,
      backupCodesLeft: 0,
      ipWhitelist: false,
      allowedIps: [],
    });
  });

  it('take a camelCase argument: iamRefresh(refreshToken:) rotates the pair', async () => {
    const signedIn = await graphLogin();
    const { body } = await stack.graphql<{ iamRefresh: LoginFields }>(
      'mutation ($refreshToken: String) { iamRefresh(refreshToken: $refreshToken) { accessToken refreshToken } }',
      { refreshToken: signedIn.refreshToken },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.iamRefresh.refreshToken).toEqual(expect.any(String));
    expect(body.data!.iamRefresh.refreshToken).not.toBe(signedIn.refreshToken);
  });

  it('leave the REST bodies with their documented snake_case wire names', async () => {
    const rest = await call(stack, null, 'POST', '/api/v1/iam/login', { email: demoEmail('Engineer'), password: 'demo-password' });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer', refresh_token: expect.any(String) });
    expect(Object.keys(rest.body).filter((key) => /[A-Z]/.test(key))).toEqual([]);
    const sessions = await call(stack, admin, 'GET', '/api/v1/iam/sessions');
    expect(sessions.status).toBe(200);
    expect(Object.keys(sessions.body.items[0]).sort()).toEqual(['current', 'expires_at', 'id', 'refreshed_at', 'started_at']);
  });
});

describe('released snake_case names, deprecated for one release', () => {
  it('still answer, with the same values as their camelCase names', async () => {
    const { body } = await stack.graphql<{ iamSessions: { items: Array<Record<string, unknown>> } }>(
      '{ iamSessions { items { id startedAt started_at expiresAt expires_at } } }',
      {},
      { authorization: `Bearer ${admin.token}` },
    );
    expect(body.errors).toBeUndefined();
    const [session] = body.data!.iamSessions.items;
    expect(session!.startedAt).toEqual(expect.any(String));
    expect(session!.started_at).toBe(session!.startedAt);
    expect(session!.expires_at).toBe(session!.expiresAt);
  });

  it('still take the old argument when the new one is absent, and refuse both at once', async () => {
    const signedIn = await graphLogin();
    const old = await stack.graphql<{ iamRefresh: LoginFields }>(
      'mutation ($token: String) { iamRefresh(refresh_token: $token) { access_token refresh_token } }',
      { token: signedIn.refreshToken },
    );
    expect(old.body.errors).toBeUndefined();
    expect(old.body.data!.iamRefresh.access_token).toEqual(expect.any(String));
    const both = await stack.graphql<{ iamRefresh: LoginFields }>(
      'mutation ($token: String) { iamRefresh(refreshToken: $token, refresh_token: $token) { accessToken } }',
      { token: old.body.data!.iamRefresh.refresh_token },
    );
    expect(both.body.data ?? null).toBeNull();
    expect(both.body.errors![0]!.message).toContain('refreshToken or its deprecated alias refresh_token, not both');
    // The refused call spent nothing: the token still rotates once.
    const after = await stack.graphql<{ iamRefresh: LoginFields }>(
      'mutation ($token: String) { iamRefresh(refreshToken: $token) { accessToken } }',
      { token: old.body.data!.iamRefresh.refresh_token },
    );
    expect(after.body.errors).toBeUndefined();
  });

  it('are marked deprecated in introspection, naming their replacement, and hidden from it unless asked for', async () => {
    const { body } = await stack.graphql<{
      login: { all: Array<{ name: string; isDeprecated: boolean; deprecationReason: string | null }>; current: Array<{ name: string }> };
      mutation: { fields: Array<{ name: string; args: Array<{ name: string; isDeprecated: boolean; deprecationReason: string | null }> }> };
    }>(`{
      login: __type(name: "Login") {
        all: fields(includeDeprecated: true) { name isDeprecated deprecationReason }
        current: fields { name }
      }
      mutation: __type(name: "Mutation") {
        fields { name args(includeDeprecated: true) { name isDeprecated deprecationReason } }
      }
    }`);
    expect(body.errors).toBeUndefined();
    const { login: loginType, mutation } = body.data!;
    expect(loginType.all).toContainEqual({ name: 'accessToken', isDeprecated: false, deprecationReason: null });
    expect(loginType.all).toContainEqual({
      name: 'access_token',
      isDeprecated: true,
      deprecationReason: 'Use accessToken; removed in the next release.',
    });
    expect(loginType.current.map((field) => field.name)).not.toContain('access_token');
    expect(loginType.current.map((field) => field.name)).toContain('twoFactor');
    const refresh = mutation.fields.find((field) => field.name === 'iamRefresh')!;
    expect(refresh.args).toEqual([
      { name: 'refreshToken', isDeprecated: false, deprecationReason: null },
      { name: 'refresh_token', isDeprecated: true, deprecationReason: 'Use refreshToken; removed in the next release.' },
    ]);
  });
});
