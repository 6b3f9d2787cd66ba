import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsRole } from '../../contracts/access.js';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, type Call, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/** Suppliers over REST: BIN/IIN checks, the lifecycle with its bounds and dual approval, and the archive's rules. */

let stack: TestStack;
const sessions = {} as Record<OperationsRole, Session>;
const SUPPLIERS = '/api/v1/scm/suppliers';

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  for (const role of ['Supply', 'Admin', 'CEO', 'Engineer', 'Foreman'] as const) sessions[role] = await login(stack, demoEmail(role));
});
afterAll(async () => {
  await stack?.stop();
});

const post = (session: Session, path: string, body: unknown = {}) => call(stack, session, 'POST', path, body, idempotencyKey());

/** A 12-digit BIN with its check digit computed here (weights 1..11, then 3..11,1,2 when the sum mod 11 is 10). */
let serial = 10_000;
function freshBin(): string {
  for (;;) {
    const prefix = `071240${String(serial++).padStart(5, '0')}`;
    const digits = [...prefix].map(Number);
    const sum = (weights: number[]) => weights.reduce((total, weight, index) => total + weight * digits[index]!, 0) % 11;
    let check = sum([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    if (check === 10) check = sum([3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]);
    if (check !== 10) return `${prefix}${check}`;
  }
}

async function draft(fields: Record<string, unknown> = {}): Promise<Call['body']> {
  const created = await post(sessions.Supply, SUPPLIERS, { bin: freshBin(), legalName: 'ТОО «Карьерснаб»', ...fields });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function active(): Promise<Call['body']> {
  const supplier = await draft();
  expect((await post(sessions.Supply, `${SUPPLIERS}/${supplier.id}/submit`)).status).toBe(200);
  const activated = await post(sessions.Admin, `${SUPPLIERS}/${supplier.id}/activate`);
  expect(activated.body.status).toBe('active');
  return activated.body;
}

describe('BIN and IIN', () => {
  it('accepts BINs and IINs whose check digit matches, including one that needs the second weights', async () => {
    for (const body of [{ bin: '971240001315' }, { bin: '123456789013' }, { iin: '900101300017' }, { iin: '850512400353' }]) {
      const created = await post(sessions.Supply, SUPPLIERS, { ...body, legalName: 'Valid identifier' });
      expect(created.status, JSON.stringify(body)).toBe(201);
      expect(created.body).toMatchObject({ ...body, status: 'draft', countryCode: 'KZ' });
    }
  });

  it('refuses a wrong check digit, a prefix no check digit can complete, other lengths and letters, naming the field', async () => {
    const invalid = ['971240001316', '123456789012', '100000000280', '12345678901', '1234567890123', '97124000131A'];
    for (const bin of invalid) {
      const refused = await post(sessions.Supply, SUPPLIERS, { bin, legalName: 'Invalid identifier' });
      expect(refused.status, bin).toBe(422);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
      expect(refused.body.errors.map((error: { field: string }) => error.field)).toEqual(['bin']);
    }
    const iin = await post(sessions.Supply, SUPPLIERS, { iin: '900101300018', legalName: 'Invalid IIN' });
    expect(iin.body.errors[0].field).toBe('iin');
  });

  it('needs a BIN or an IIN', async () => {
    const refused = await post(sessions.Supply, SUPPLIERS, { legalName: 'Nameless' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ field: 'bin', message: 'give a BIN or an IIN' }]);
  });

  it('answers 409 for a BIN another supplier holds, and frees it once that supplier is archived', async () => {
    const first = await draft();
    const duplicate = await post(sessions.Supply, SUPPLIERS, { bin: first.bin, legalName: 'Twin' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('BUSINESS_KEY_TAKEN');
    const archived = await post(sessions.Supply, `${SUPPLIERS}/${first.id}/archive`, { archivedReason: 'Entered twice by mistake' });
    expect(archived.body.status).toBe('archived');
    expect((await post(sessions.Supply, SUPPLIERS, { bin: first.bin, legalName: 'Twin' })).status).toBe(201);
  });
});

describe('lifecycle', () => {
  it('moves draft → submitted → active → suspended → active → archived, recording who and when', async () => {
    const supplier = await draft({ categories: ['DRILL_TOOL', 'SPARE'] });
    expect(supplier).toMatchObject({ status: 'draft', submittedAt: null, categories: ['DRILL_TOOL', 'SPARE'] });
    const submitted = await post(sessions.Supply, `${SUPPLIERS}/${supplier.id}/submit`);
    expect(submitted.body).toMatchObject({ status: 'draft', submittedBy: sessions.Supply.userId });
    expect(Date.parse(submitted.body.submittedAt)).not.toBeNaN();
    const activated = await post(sessions.CEO, `${SUPPLIERS}/${supplier.id}/activate`);
    expect(activated.body).toMatchObject({ status: 'active', activatedBy: sessions.CEO.userId });
    const suspended = await post(sessions.Supply, `${SUPPLIERS}/${supplier.id}/suspend`, {
      suspendedReason: 'payment_delay',
      suspendedReasonText: 'Invoices unpaid for 60 days',
    });
    expect(suspended.body).toMatchObject({ status: 'suspended', suspendedReason: 'payment_delay' });
    const unblocked = await post(sessions.Supply, `${SUPPLIERS}/${supplier.id}/unblock`, { reason: 'Debt settled in full' });
    expect(unblocked.body).toMatchObject({ status: 'active', suspendedReason: null, suspendedReasonText: null });
    const archived = await post(sessions.Supply, `${SUPPLIERS}/${supplier.id}/archive`, {
      archivedReason: 'Company liquidated',
      coApprovedBy: sessions.CEO.userId,
    });
    expect(archived.body).toMatchObject({
      status: 'archived',
      archivedCoApprovedBy: sessions.CEO.userId,
      archivedReason: 'Company liquidated',
    });
    expect((await call(stack, sessions.Engineer, 'GET', `${SUPPLIERS}/${supplier.id}`)).body.status).toBe('archived');
  });

  it('answers 409 STATE_CONFLICT to every move from a state it does not start from', async () => {
    const supplier = await draft();
    const conflict = async (verb: string, body: unknown, session = sessions.Admin) => {
      const response = await post(session, `${SUPPLIERS}/${supplier.id}/${verb}`, body);
      expect(response.status, verb).toBe(409);
      expect(response.body.code).toBe('STATE_CONFLICT');
    };
    await conflict('activate', {});
    await conflict('suspend', { suspendedReason: 'other', suspendedReasonText: 'Not delivering at all' });
    await conflict('unblock', { reason: 'Not suspended at all' });
    await post(sessions.Supply, `${SUPPLIERS}/${supplier.id}/submit`);
    await conflict('submit', {});
    await post(sessions.Admin, `${SUPPLIERS}/${supplier.id}/activate`);
    await conflict('activate', {});
    await conflict('unblock', { reason: 'Not suspended at all' });
    await post(sessions.Admin, `${SUPPLIERS}/${supplier.id}/archive`, {
      archivedReason: 'Closing the account',
      coApprovedBy: sessions.CEO.userId,
    });
    await conflict('archive', { archivedReason: 'Closing the account again', coApprovedBy: sessions.CEO.userId });
    await conflict('submit', {});
  });

  it('bounds the suspension (enumerated reason, text of at least 10), the unblock reason (10 to 1000) and the archive reason', async () => {
    const supplier = await active();
    const path = `${SUPPLIERS}/${supplier.id}`;
    const refused = async (verb: string, body: unknown, field: string) => {
      const response = await post(sessions.Supply, `${path}/${verb}`, body);
      expect(response.status, `${verb} ${JSON.stringify(body)}`).toBe(422);
      expect(response.body.errors[0].field).toBe(field);
    };
    await refused('suspend', { suspendedReason: 'payment_delay', suspendedReasonText: 'Too short' }, 'suspendedReasonText');
    await refused('suspend', { suspendedReason: 'bankrupt', suspendedReasonText: 'Invoices unpaid for 60 days' }, 'suspendedReason');
    expect(
      (await post(sessions.Supply, `${path}/suspend`, { suspendedReason: 'quality_issue', suspendedReasonText: '0123456789' })).status,
    ).toBe(200);
    await refused('unblock', { reason: 'Too short' }, 'reason');
    await refused('unblock', { reason: 'x'.repeat(1001) }, 'reason');
    expect((await post(sessions.Supply, `${path}/unblock`, { reason: 'x'.repeat(1000) })).status).toBe(200);
    await refused('archive', { archivedReason: 'Too short', coApprovedBy: sessions.CEO.userId }, 'archivedReason');
  });

  it('archives a draft alone, but an active or suspended supplier only with another Admin or CEO as second approver', async () => {
    const lone = await draft();
    expect((await post(sessions.Supply, `${SUPPLIERS}/${lone.id}/archive`, { archivedReason: 'Never traded with' })).body.status).toBe(
      'archived',
    );
    for (const state of ['active', 'suspended'] as const) {
      const supplier = await active();
      const path = `${SUPPLIERS}/${supplier.id}`;
      if (state === 'suspended') {
        await post(sessions.Supply, `${path}/suspend`, { suspendedReason: 'sanctions', suspendedReasonText: 'Listed by the regulator' });
      }
      const archive = (coApprovedBy?: string | null, session = sessions.Supply) =>
        post(session, `${path}/archive`, { archivedReason: 'No longer needed', ...(coApprovedBy === undefined ? {} : { coApprovedBy }) });
      expect((await archive()).body.code, state).toBe('SUPPLIER_CO_APPROVER_REQUIRED');
      expect((await archive(null)).body.code).toBe('SUPPLIER_CO_APPROVER_REQUIRED');
      expect((await archive('')).status).toBe(422);
      expect((await archive(sessions.Supply.userId)).body.code).toBe('SUPPLIER_CO_APPROVER_INVALID');
      expect((await archive(sessions.Admin.userId, sessions.Admin)).body.code).toBe('SUPPLIER_CO_APPROVER_INVALID');
      expect((await archive(sessions.Engineer.userId)).body.code).toBe('SUPPLIER_CO_APPROVER_INVALID');
      expect((await archive('5f0c8a52-5d0b-4a57-9a3e-5a3c2f1d0b9e')).body.code).toBe('SUPPLIER_CO_APPROVER_INVALID');
      expect((await call(stack, sessions.Supply, 'GET', path)).body.status).toBe(state);
      const archived = await archive(sessions.Admin.userId);
      expect(archived.status).toBe(200);
      expect(archived.body).toMatchObject({ status: 'archived', archivedCoApprovedBy: sessions.Admin.userId });
    }
  });

  it('lets Supply keep suppliers and only Admin or CEO activate them; Foreman sees none', async () => {
    const supplier = await draft();
    await post(sessions.Supply, `${SUPPLIERS}/${supplier.id}/submit`);
    expect((await post(sessions.Supply, `${SUPPLIERS}/${supplier.id}/activate`)).status).toBe(403);
    expect((await post(sessions.Engineer, SUPPLIERS, { bin: freshBin(), legalName: 'Engineer’s pick' })).status).toBe(403);
    expect((await call(stack, sessions.Foreman, 'GET', SUPPLIERS)).status).toBe(403);
  });

  it('lists suppliers by legal name, filtered by status and search text, page by page', async () => {
    const marker = `Zeta-${Date.now()}`;
    const names = ['A', 'B', 'C'].map((letter) => `${marker} ${letter}`);
    for (const name of names) await draft({ legalName: name });
    const first = await call(stack, sessions.CEO, 'GET', `${SUPPLIERS}?q=${encodeURIComponent(marker.toLowerCase())}&limit=2`);
    expect(first.body.items.map((item: { legalName: string }) => item.legalName)).toEqual(names.slice(0, 2));
    const rest = await call(
      stack,
      sessions.CEO,
      'GET',
      `${SUPPLIERS}?q=${encodeURIComponent(marker)}&limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(rest.body).toMatchObject({ items: [{ legalName: names[2] }], nextCursor: null });
    const activeOnly = await call(stack, sessions.CEO, 'GET', `${SUPPLIERS}?status=active&q=${encodeURIComponent(marker)}`);
    expect(activeOnly.body.items).toEqual([]);
    expect((await call(stack, sessions.CEO, 'GET', `${SUPPLIERS}?q=${'x'.repeat(201)}`)).status).toBe(422);
  });
});

describe('the published description', () => {
  it('publishes every suppliers and stock path in OpenAPI with its methods', async () => {
    const { body } = await call(stack, null, 'GET', '/api/v1/openapi.json');
    const methods = (path: string) => Object.keys(body.paths[path] ?? {}).sort();
    const expected: Record<string, string[]> = {
      '/api/v1/scm/suppliers': ['get', 'post'],
      '/api/v1/scm/suppliers/{id}': ['get'],
      '/api/v1/scm/suppliers/{id}/contacts': ['get', 'post'],
      '/api/v1/scm/suppliers/{id}/contacts/{contactId}/primary': ['post'],
      '/api/v1/scm/suppliers/{id}/bank-accounts': ['get', 'post'],
      '/api/v1/scm/suppliers/{id}/bank-accounts/{bankId}': ['patch'],
      '/api/v1/scm/suppliers/{id}/bank-accounts/{bankId}/primary': ['post'],
      '/api/v1/scm/warehouses': ['get', 'post'],
      '/api/v1/scm/warehouses/{id}': ['get'],
      '/api/v1/scm/tmc/items': ['get', 'post'],
      '/api/v1/scm/tmc/items/{id}': ['get', 'patch'],
      '/api/v1/scm/tmc/items/{id}/deactivate': ['post'],
      '/api/v1/scm/tmc/receipts': ['post'],
      '/api/v1/scm/tmc/write-offs': ['post'],
      '/api/v1/scm/tmc/transfers': ['get', 'post'],
      '/api/v1/scm/tmc/transfers/{id}': ['get'],
      '/api/v1/scm/tmc/transfers/{id}/confirm': ['post'],
      '/api/v1/scm/tmc/requests': ['get', 'post'],
      '/api/v1/scm/tmc/requests/{id}': ['get'],
      '/api/v1/scm/tmc/inventories': ['get', 'post'],
      '/api/v1/scm/tmc/inventories/{id}': ['get'],
      '/api/v1/scm/tmc/inventories/{id}/complete': ['post'],
      '/api/v1/scm/tmc/balances': ['get'],
    };
    for (const verb of ['submit', 'activate', 'suspend', 'unblock', 'archive']) expected[`/api/v1/scm/suppliers/{id}/${verb}`] = ['post'];
    for (const verb of ['submit', 'approve', 'reject', 'return', 'start', 'close'])
      expected[`/api/v1/scm/tmc/requests/{id}/${verb}`] = ['post'];
    for (const [path, verbs] of Object.entries(expected)) expect(methods(path), path).toEqual(verbs);
  });
});

describe('the database', () => {
  it('keeps the stage and the published status together: a submitted draft is draft', async () => {
    const supplier = await draft();
    await post(sessions.Supply, `${SUPPLIERS}/${supplier.id}/submit`);
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('select stage, status from operations.supplier where id = $1', [supplier.id]);
      expect(rows).toEqual([{ stage: 'submitted', status: 'draft' }]);
    } finally {
      await db.end();
    }
  });
});
