import { expect } from 'vitest';
import { call, idempotencyKey } from '../operations.js';
import { importOne } from './core.js';
import type { ForeignRecords } from './types.js';

/** An employee, a brigade and a document of the other organization. */
export const hrForeignRecords: ForeignRecords = async (context) => {
  const { stack, admin, root, organizationId } = context;
  const objectId = await importOne(context, '/api/v1/core/production-objects', 'hr-object');
  const positionId = await importOne(context, '/api/v1/hr/positions', 'hr-position');
  const hired = await call(
    stack,
    admin,
    'POST',
    '/api/v1/hr/personnel',
    { fullName: 'Other Employee', tabNumber: 'OTHER-1', positionId, objectId, hiredAt: '2020-01-01' },
    idempotencyKey(),
  );
  expect(hired.status).toBe(201);
  const brigade = await call(
    stack,
    admin,
    'POST',
    '/api/v1/hr/brigades',
    { name: 'Other Brigade', objectId, workType: 'drilling' },
    idempotencyKey(),
  );
  expect(brigade.status).toBe(201);
  // Documents are initiated by Engineer, Mechanic, Foreman or CEO: the super-admin acts in the other organization.
  const document = await call(
    stack,
    root,
    'POST',
    '/api/v1/core/documents',
    { entityType: 'hr.personnel', entityId: hired.body.id, filename: 'contract.pdf' },
    { ...idempotencyKey(), 'x-organization-id': organizationId },
  );
  expect(document.status, JSON.stringify(document.body)).toBe(201);
  return {
    '/api/v1/hr/personnel': hired.body.id,
    '/api/v1/hr/brigades': brigade.body.id,
    '/api/v1/core/documents': document.body.document.id,
  };
};
