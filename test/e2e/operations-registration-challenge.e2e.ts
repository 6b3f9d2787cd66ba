import { randomUUID } from 'node:crypto';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * The default bot challenge of registration (seed 001 part C, 2.1): a self-hosted ALTCHA
 * proof of work, needing no third party. The test solves the served challenge as the widget
 * would, with altcha-lib's solver.
 */

let stack: TestStack;

beforeAll(async () => {
  // The stacks switch the challenge off; this one runs the default.
  stack = await startStack({ CHALLENGE: 'altcha' });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const registration = () => ({ name: 'Visitor', email: `visitor-${randomUUID().slice(0, 8)}@example.org`, password: 'visitor-password-1' });
const register = (body: Record<string, unknown>) => call(stack, null, 'POST', '/api/v1/iam/register', body);
const payloadOf = (challenge: Challenge, solution: unknown) => Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');

async function solved(): Promise<{ challenge: Challenge; token: string; counter: number; derivedKey: string }> {
  const served = await call(stack, null, 'GET', '/api/v1/iam/challenge');
  expect(served.status).toBe(200);
  expect(served.headers.get('cache-control')).toBe('no-store');
  const challenge = served.body as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  expect(solution).not.toBeNull();
  return { challenge, token: payloadOf(challenge, solution), counter: solution!.counter, derivedKey: solution!.derivedKey };
}

describe('registration behind the ALTCHA proof of work (on by default)', () => {
  it('serves a signed challenge that expires within 10 minutes', async () => {
    const served = await call(stack, null, 'GET', '/api/v1/iam/challenge');
    expect(served.body).toMatchObject({
      parameters: { algorithm: 'SHA-256', keyPrefix: expect.any(String) },
      signature: expect.any(String),
    });
    const expiresAt = served.body.parameters.expiresAt as number;
    expect(expiresAt - Date.now() / 1000).toBeGreaterThan(500);
    expect(expiresAt - Date.now() / 1000).toBeLessThanOrEqual(600);
  });

  it('refuses registration without a solution, with garbage, with a key the work did not find, or with an altered challenge', async () => {
    const missing = await register(registration());
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('BOT_CHALLENGE_FAILED');
    expect((await register({ ...registration(), challenge_token: 'not-a-payload' })).body.code).toBe('BOT_CHALLENGE_FAILED');

    const { challenge, counter, derivedKey } = await solved();
    const guessed = { counter, derivedKey: derivedKey.replace(/^./, (digit) => (digit === '0' ? '1' : '0')) };
    const wrongKey = await register({ ...registration(), challenge_token: payloadOf(challenge, guessed) });
    expect(wrongKey.status).toBe(422);
    expect(wrongKey.body.code).toBe('BOT_CHALLENGE_FAILED');
    const easier = { ...challenge, parameters: { ...challenge.parameters, keyPrefix: '00' } };
    const tampered = await register({ ...registration(), challenge_token: payloadOf(easier, { counter, derivedKey }) });
    expect(tampered.status).toBe(422);
    expect(tampered.body.code).toBe('BOT_CHALLENGE_FAILED');
  });

  it('registers with a solved challenge, and takes each solution once', async () => {
    const { token } = await solved();
    const body = registration();
    const registered = await register({ ...body, challenge_token: token });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(registered.body).toMatchObject({ verification_sent: true, user: { email: body.email } });
    const replayed = await register({ ...registration(), challenge_token: token });
    expect(replayed.status).toBe(422);
    expect(replayed.body.code).toBe('BOT_CHALLENGE_FAILED');
  });
});
