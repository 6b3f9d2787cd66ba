import pg from 'pg';
import { expect } from 'vitest';
import { REFERENCE_BOOKS, systemRoles } from '../../../contracts/operations/reference-books.contract.js';
import { call, idempotencyKey, type Call, type Session } from '../operations.js';
import type { ForeignContext, ForeignRecords } from './types.js';

const ROWS: Record<string, Record<string, unknown>> = {
  'maintenance-norms': { assetClassCode: 'X', norm: 'n', value: 1, unit: 'h', validFrom: '2026-01-01T00:00:00Z' },
  'downtime-categories': { code: 'C', name: 'N', group: 'g' },
  'hse-incident-classifiers': { code: 'C', group: 'g', severity: 'low', name: 'N' },
};

/** Imports one row into a book of the other organization and returns its id. */
export async function importOne(context: ForeignContext, readPath: string, slug: string): Promise<string> {
  const row = ROWS[slug] ?? { code: `C-${slug}`, name: 'N' };
  const preview = await call(context.stack, context.admin, 'POST', `${readPath}/import/preview`, { rows: [row] });
  expect(preview.body.diff?.errors, readPath).toEqual([]);
  const committed = await call(
    context.stack,
    context.admin,
    'POST',
    `${readPath}/import/commit`,
    { batchId: preview.body.batchId },
    idempotencyKey(),
  );
  expect(committed.status, readPath).toBe(200);
  const list = await call(context.stack, context.admin, 'GET', `${readPath}?includeHistory=true`);
  return (list.body as Array<{ id: string; code?: string }>).find((item) => item.code === row.code || !('code' in row))!.id;
}

/**
 * Creates a record in the other organization as `session` (its Admin unless given), with a fresh
 * Idempotency-Key and `headers`; the answer's body. Anything but 201 fails, naming the path and the answer.
 */
export async function createForeign(
  context: ForeignContext,
  path: string,
  body: unknown,
  session: Session = context.admin,
  headers: Record<string, string> = {},
): Promise<Call['body']> {
  const response = await call(context.stack, session, 'POST', path, body, { ...idempotencyKey(), ...headers });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(201);
  return response.body;
}

/** The organization itself, a row of each reference book, a row in its trash, a previewed import batch. */
export const coreForeignRecords: ForeignRecords = async (context) => {
  const records: Record<string, string> = { '/api/v1/core/organizations': context.organizationId };
  const db = new pg.Client({ connectionString: context.stack.databaseUrl });
  await db.connect();
  try {
    for (const book of REFERENCE_BOOKS) {
      // System roles have no import: every organization is created with them, the Admin role among them.
      records[book.readPath] =
        book === systemRoles
          ? (
              await db.query<{ id: string }>(`select id from operations.system_role where organization_id = $1 and code = 'Admin'`, [
                context.organizationId,
              ])
            ).rows[0]!.id
          : await importOne(context, book.readPath, book.slug);
    }
  } finally {
    await db.end();
  }
  const trashed = await importOne(context, '/api/v1/core/production-objects', 'trashed');
  expect((await call(context.stack, context.admin, 'DELETE', `/api/v1/core/production-objects/${trashed}`)).status).toBe(200);
  records['/api/v1/core/trash'] = trashed;
  const preview = await call(context.stack, context.admin, 'POST', '/api/v1/hr/positions/import/preview', {
    rows: [{ code: 'P1', name: 'P' }],
  });
  expect(preview.body.batchId).toEqual(expect.any(String));
  records.batchId = preview.body.batchId;
  return records;
};
