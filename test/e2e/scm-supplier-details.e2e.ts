import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/** A supplier's contacts and bank accounts over REST: IBAN and bank-detail bounds, the one-primary rule, audited changes. */

let stack: TestStack;
let supply: Session;
let admin: Session;
let db: pg.Client;
const SUPPLIERS = '/api/v1/scm/suppliers';
const IBAN = 'KZ86125KZT5004100100';

beforeAll(async () => {
  stack = await startStack({ ...OPERATIONS_ENV });
  supply = await login(stack, demoEmail('Supply'));
  admin = await login(stack, demoEmail('Admin'));
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await stack?.stop();
});

const post = (path: string, body: unknown = {}) => call(stack, supply, 'POST', path, body, idempotencyKey());

/** A 12-digit BIN with its check digit (weights 1..11, then 3..11,1,2 when the sum mod 11 is 10). */
let serial = 20_000;
function freshBin(): string {
  for (;;) {
    const prefix = `081240${String(serial++).padStart(5, '0')}`;
    const digits = [...prefix].map(Number);
    const sum = (weights: number[]) => weights.reduce((total, weight, index) => total + weight * digits[index]!, 0) % 11;
    let check = sum([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    if (check === 10) check = sum([3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]);
    if (check !== 10) return `${prefix}${check}`;
  }
}

async function supplier(): Promise<string> {
  const created = await post(SUPPLIERS, { bin: freshBin(), legalName: 'ТОО «Снаб»' });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function account(supplierId: string, body: Record<string, unknown> = {}) {
  return post(`${SUPPLIERS}/${supplierId}/bank-accounts`, {
    bankName: 'Kaspi Bank',
    iban: IBAN,
    bik: 'CASPKZKA',
    bk: '17',
    currency: 'KZT',
    ...body,
  });
}

describe('bank accounts', () => {
  it('accepts Kazakh IBANs that pass the mod-97 check', async () => {
    const id = await supplier();
    for (const iban of [IBAN, 'KZ18722KZT5004100200', 'KZ257220000000000001']) {
      const created = await account(id, { iban });
      expect(created.status, iban).toBe(201);
      expect(created.body).toMatchObject({ iban, supplierId: id, currency: 'KZT' });
    }
  });

  it('refuses an IBAN with a wrong checksum, outside the KZ pattern, or of another country', async () => {
    const id = await supplier();
    const cases: Array<[string, string]> = [
      ['KZ87125KZT5004100100', 'fails the IBAN mod-97 checksum'],
      ['KZ18722KZT5004100201', 'fails the IBAN mod-97 checksum'],
      ['KZ86125kzt5004100100', 'must match ^KZ[A-Z0-9]{18}$'],
      ['KZ86125KZT500410010', 'must match ^KZ[A-Z0-9]{18}$'],
      ['DE89370400440532013000', 'must match ^KZ[A-Z0-9]{18}$'],
    ];
    for (const [iban, message] of cases) {
      const refused = await account(id, { iban });
      expect(refused.status, iban).toBe(422);
      expect(refused.body.errors).toContainEqual({ field: 'iban', message });
    }
  });

  it('bounds bik (8 characters or null), bk (2 or null) and the ISO 4217 currency', async () => {
    const id = await supplier();
    for (const [field, value] of [
      ['bik', 'CASPKZK'],
      ['bik', 'CASPKZKAX'],
      ['bk', '1'],
      ['currency', 'XYZ'],
      ['currency', 'kzt'],
      ['bankName', ''],
    ] as const) {
      const refused = await account(id, { [field]: value });
      expect(refused.status, `${field}=${value}`).toBe(422);
      expect(refused.body.errors[0].field).toBe(field);
    }
    const nulls = await account(id, { bik: null, bk: null, currency: 'USD' });
    expect(nulls.body).toMatchObject({ bik: null, bk: null, currency: 'USD' });
  });

  it('writes each changed detail and the reason to the audit log, publishes scm.supplier.updated, and leaves the rest', async () => {
    const id = await supplier();
    const created = await account(id);
    const path = `${SUPPLIERS}/${id}/bank-accounts/${created.body.id}`;
    const changed = await call(stack, supply, 'PATCH', path, {
      iban: 'KZ18722KZT5004100200',
      bankName: 'Halyk Bank',
      bik: null,
      currency: 'KZT',
      reason: 'The supplier moved its account',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ iban: 'KZ18722KZT5004100200', bankName: 'Halyk Bank', bik: null, bk: '17', currency: 'KZT' });
    const audit = await call(stack, admin, 'GET', `/api/v1/core/audit?entityType=SupplierBankAccount&entityId=${created.body.id}`);
    const [update] = audit.body.items;
    expect(update).toMatchObject({ action: 'update', operation: 'scmUpdateSupplierBankAccount', actorId: supply.userId });
    expect(update.changes).toEqual({
      iban: { before: IBAN, after: 'KZ18722KZT5004100200' },
      bankName: { before: 'Kaspi Bank', after: 'Halyk Bank' },
      bik: { before: 'CASPKZKA', after: null },
      changeReason: { before: null, after: 'The supplier moved its account' },
    });
    const { rows } = await db.query(
      `select payload from operations.outbox_event where type = 'scm.supplier.updated' and payload ->> 'bankAccountId' = $1`,
      [created.body.id],
    );
    expect(rows.map((row) => row.payload)).toEqual([
      {
        supplierId: id,
        bankAccountId: created.body.id,
        changedFields: ['iban', 'bankName', 'bik'],
        reason: 'The supplier moved its account',
        actorId: supply.userId,
      },
    ]);
  });

  it('needs a reason of 10 to 1000 characters and a valid IBAN to change details', async () => {
    const id = await supplier();
    const created = await account(id);
    const path = `${SUPPLIERS}/${id}/bank-accounts/${created.body.id}`;
    for (const body of [{ bankName: 'Halyk Bank' }, { bankName: 'Halyk Bank', reason: 'Too short' }, { reason: 'x'.repeat(1001) }]) {
      const refused = await call(stack, supply, 'PATCH', path, body);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].field).toBe('reason');
    }
    const badIban = await call(stack, supply, 'PATCH', path, { iban: 'KZ87125KZT5004100100', reason: 'Account number corrected' });
    expect(badIban.body.errors[0]).toEqual({ field: 'iban', message: 'fails the IBAN mod-97 checksum' });
  });
});

describe('one primary', () => {
  it('makes the first contact and the first account primary and lists the primary first', async () => {
    const id = await supplier();
    const first = await post(`${SUPPLIERS}/${id}/contacts`, {
      fullName: 'Айгерим Садыкова',
      phone: '+7 701 000 00 00',
      email: 'a@example.kz',
    });
    const second = await post(`${SUPPLIERS}/${id}/contacts`, { fullName: 'Ержан Омаров', position: 'Директор' });
    expect([first.body.isPrimary, second.body.isPrimary]).toEqual([true, false]);
    await post(`${SUPPLIERS}/${id}/contacts/${second.body.id}/primary`);
    const contacts = await call(stack, supply, 'GET', `${SUPPLIERS}/${id}/contacts`);
    expect(contacts.body.items.map((contact: { fullName: string; isPrimary: boolean }) => [contact.fullName, contact.isPrimary])).toEqual([
      ['Ержан Омаров', true],
      ['Айгерим Садыкова', false],
    ]);
    expect((await account(id)).body.isPrimary).toBe(true);
    expect((await account(id)).body.isPrimary).toBe(false);
  });

  for (const kind of ['contacts', 'bank-accounts'] as const) {
    it(`leaves exactly one primary of ${kind} after 10 concurrent switches, each answered 200`, async () => {
      const id = await supplier();
      const ids: string[] = [];
      for (let index = 0; index < 10; index += 1) {
        const created =
          kind === 'contacts' ? await post(`${SUPPLIERS}/${id}/contacts`, { fullName: `Contact ${index}` }) : await account(id);
        ids.push(created.body.id);
      }
      const switches = await Promise.all(ids.map((child) => post(`${SUPPLIERS}/${id}/${kind}/${child}/primary`)));
      expect(switches.map((response) => response.status)).toEqual(Array(10).fill(200));
      const listed = await call(stack, supply, 'GET', `${SUPPLIERS}/${id}/${kind}`);
      expect(listed.body.items.filter((child: { isPrimary: boolean }) => child.isPrimary)).toHaveLength(1);
      const table = kind === 'contacts' ? 'supplier_contact' : 'supplier_bank_account';
      const { rows } = await db.query(`select count(*)::int as primaries from operations.${table} where supplier_id = $1 and is_primary`, [
        id,
      ]);
      expect(rows[0].primaries).toBe(1);
    });
  }

  it('refuses a second primary in the database itself, whoever writes', async () => {
    const id = await supplier();
    await post(`${SUPPLIERS}/${id}/contacts`, { fullName: 'First' });
    const second = await post(`${SUPPLIERS}/${id}/contacts`, { fullName: 'Second' });
    await expect(
      db.query('update operations.supplier_contact set is_primary = true where id = $1', [second.body.id]),
    ).rejects.toMatchObject({
      code: '23505',
      constraint: 'supplier_contact_primary_unique',
    });
  });

  it('answers 404 for a contact or account of another supplier, and 409 to changes once the supplier is archived', async () => {
    const one = await supplier();
    const other = await supplier();
    const theirs = await post(`${SUPPLIERS}/${other}/contacts`, { fullName: 'Not yours' });
    const response = await post(`${SUPPLIERS}/${one}/contacts/${theirs.body.id}/primary`);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('RECORD_NOT_FOUND');
    await post(`${SUPPLIERS}/${other}/archive`, { archivedReason: 'No deliveries since 2024' });
    const late = await post(`${SUPPLIERS}/${other}/contacts`, { fullName: 'Too late' });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('STATE_CONFLICT');
  });
});
