import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call as operationsCall, demoEmail, login, OPERATIONS_ENV } from '../support/operations.js';
import { call, startResearchStack } from '../support/research.js';
import type { TestStack } from '../support/stack.js';
import { signInWithConsoleClient } from '../support/workspace-sign-in.js';

/**
 * Issue 20, item 4: a token replaced by a refresh, or ended by a sign-out, is refused on the
 * next request — on the operations API (`/api/v1`) and on the research workspace API
 * (`/api/chat`) alike — not when it expires.
 */

let stack: TestStack;

beforeAll(async () => {
  stack = await startResearchStack({ ...OPERATIONS_ENV });
});
afterAll(async () => {
  await stack?.stop();
});

const second = () => new Promise((resolve) => setTimeout(resolve, 1100));

describe('operations access tokens', () => {
  it('refuses the access token a refresh replaced, at once, and admits the new one', async () => {
    const session = await login(stack, demoEmail('Engineer'));
    expect((await operationsCall(stack, session, 'GET', '/api/v1/iam/me')).status).toBe(200);
    const refreshed = await operationsCall(stack, null, 'POST', '/api/v1/iam/refresh', { refresh_token: session.refreshToken });
    expect(refreshed.status).toBe(200);
    const old = await operationsCall(stack, session, 'GET', '/api/v1/iam/me');
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('TOKEN_INVALID');
    const fresh = { ...session, token: refreshed.body.access_token as string };
    expect((await operationsCall(stack, fresh, 'GET', '/api/v1/iam/me')).status).toBe(200);
  });
});

describe('workspace access tokens (/api/chat)', () => {
  it('refuses the access token at once after the person signs out, and every one issued before it', async () => {
    const earlier = await signInWithConsoleClient(stack, demoEmail('Supply'));
    const current = await signInWithConsoleClient(stack, demoEmail('Supply'));
    expect((await call(stack, earlier.accessToken, 'GET', '/api/chat/workspace')).status).toBe(200);
    expect((await call(stack, current.accessToken, 'GET', '/api/chat/workspace')).status).toBe(200);

    const signedOut = await call(stack, current.accessToken, 'POST', '/api/chat/sign-out');
    expect(signedOut.status).toBe(200);
    expect(signedOut.body).toEqual({ signedOut: true });

    for (const token of [current.accessToken, earlier.accessToken]) {
      const refused = await call(stack, token, 'GET', '/api/chat/threads');
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('invalid_access_token');
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('admits a token issued after the sign-out, and leaves other people signed in', async () => {
    const other = await signInWithConsoleClient(stack, demoEmail('CEO'));
    const person = await signInWithConsoleClient(stack, demoEmail('Admin'));
    expect((await call(stack, person.accessToken, 'POST', '/api/chat/sign-out')).status).toBe(200);
    expect((await call(stack, other.accessToken, 'GET', '/api/chat/workspace')).status).toBe(200);
    await second();
    const again = await signInWithConsoleClient(stack, demoEmail('Admin'));
    expect((await call(stack, again.accessToken, 'GET', '/api/chat/workspace')).status).toBe(200);
  });
});
