import { createForeign, importOne } from './core.js';
import type { ForeignRecords } from './types.js';

/** An employee, a brigade and a document of the other organization. */
export const hrForeignRecords: ForeignRecords = async (context) => {
  const objectId = await importOne(context, '/api/v1/core/production-objects', 'hr-object');
  const positionId = await importOne(context, '/api/v1/hr/positions', 'hr-position');
  const hired = await createForeign(context, '/api/v1/hr/personnel', {
    fullName: 'Other Employee',
    tabNumber: 'OTHER-1',
    positionId,
    objectId,
    hiredAt: '2020-01-01',
  });
  const brigade = await createForeign(context, '/api/v1/hr/brigades', { name: 'Other Brigade', objectId, workType: 'drilling' });
  // Documents are initiated by Engineer, Mechanic, Foreman or CEO: the super-admin acts in the other organization.
  const document = await createForeign(
    context,
    '/api/v1/core/documents',
    { entityType: 'hr.personnel', entityId: hired.id, filename: 'contract.pdf' },
    context.root,
    { 'x-organization-id': context.organizationId },
  );
  return {
    '/api/v1/hr/personnel': hired.id,
    '/api/v1/hr/brigades': brigade.id,
    '/api/v1/core/documents': document.document.id,
  };
};
