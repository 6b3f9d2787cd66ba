import type { Context } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFamily, type InputIssue } from '../../contracts/input.js';
import { LIBRARY_CONTRACTS } from '../../contracts/library/index.js';
import { refusalOf } from '../../contracts/refusals.js';
import { libraryAdminErrorBody } from '../../rest-facade/errors/library-admin.js';
import { FacadeError } from '../../edge/facade-error.js';
import { json } from '../support/library-keys.js';
import { call, createWorkspace, startResearchStack } from '../support/research.js';
import type { TestStack } from '../support/stack.js';

/**
 * A 422 lists at most 100 problems and says how many there were (`errorCount`,
 * `truncated`), in every family's shape; a short list is unchanged. (The operations
 * Problem is proved in operations-clear-refusals.e2e.ts.)
 */

let stack: TestStack;

beforeAll(async () => {
  stack = await startResearchStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('the library /v1 family', () => {
  it('lists the first 100 of 150 bad messages in error.details, with errorCount and truncated', async () => {
    const registered = await stack.fetch('/v1/register', json({ email: 'cap@example.org' }));
    expect(registered.status).toBe(201);
    const { key } = (await registered.json()) as { key: string };
    const response = await stack.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ messages: Array(150).fill({ role: 'user', content: 5 }) }),
    });
    expect(response.status).toBe(422);
    const { error } = (await response.json()) as { error: { code: string; details: unknown[]; errorCount: number; truncated: boolean } };
    expect(error).toMatchObject({ code: 'invalid_parameter', errorCount: 150, truncated: true });
    expect(error.details).toHaveLength(100);
  });
});

describe('the research family', () => {
  it('lists the first 100 of 150 scopes with a NUL character in details, with errorCount and truncated', async () => {
    const workspace = await createWorkspace(stack, 'cap');
    const created = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', { name: 'many', scopes: Array(150).fill('a\u0000') });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ errorCount: 150, truncated: true });
    expect(created.body.details).toHaveLength(100);
  });

  it('lists a few bad scopes without errorCount or truncated', async () => {
    const workspace = await createWorkspace(stack, 'few');
    const created = await call(stack, workspace.adminKey, 'POST', '/v1/api-keys', { name: 'few', scopes: ['nope', 'nada'] });
    expect(created.status).toBe(422);
    expect(created.body.details).toHaveLength(2);
    expect(created.body).not.toHaveProperty('errorCount');
    expect(created.body).not.toHaveProperty('truncated');
  });
});

describe('the library admin family', () => {
  const admin = LIBRARY_CONTRACTS.find((contract) => contractFamily(contract) === 'library-admin')!;
  const issues = (count: number): InputIssue[] =>
    Array.from({ length: count }, (_, index) => ({
      location: 'body',
      path: ['items', index],
      code: 'invalid_type',
      expected: 'string',
      message: 'Invalid input',
      input: index,
    }));
  const body = (count: number) => libraryAdminErrorBody(FacadeError.fromDomain(refusalOf(admin, issues(count))), {} as Context).body;

  it('lists the first 100 detail items of 150 and says how many there were beside them', () => {
    const answer = body(150) as { detail: unknown[]; errorCount: number; truncated: boolean };
    expect(answer.detail).toHaveLength(100);
    expect(answer).toMatchObject({ errorCount: 150, truncated: true });
  });

  it('lists 100 detail items exactly as before', () => {
    expect(Object.keys(body(100) as object)).toEqual(['detail']);
  });
});
