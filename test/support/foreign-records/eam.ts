import { addMember, login, type Session } from '../operations.js';
import { createForeign, importOne } from './core.js';
import type { ForeignRecords } from './types.js';

/** An Engineer who is also Supply in the other organization (assets and supplies are not the Admin's). */
async function otherEngineer(context: Parameters<ForeignRecords>[0]): Promise<Session> {
  const email = 'engineer@other.example.org';
  await addMember(context.stack, context.root, context.organizationId, {
    email,
    password: 'other-password',
    name: 'Other Engineer',
    roles: ['Engineer', 'Supply'],
  });
  return login(context.stack, email, 'other-password');
}

/** An asset class, an asset with scheduled maintenance, a fuel tank, a supply request and a supply of the other organization. */
export const eamForeignRecords: ForeignRecords = async (context) => {
  const engineer = await otherEngineer(context);
  const post = async (path: string, body: unknown, session?: Session): Promise<string> =>
    (await createForeign(context, path, body, session)).id as string;
  const objectId = await importOne(context, '/api/v1/core/production-objects', 'eam-fuel');
  const assetClassId = await post('/api/v1/eam/asset-classes', { code: 'FOREIGN', name: 'Foreign class' });
  const assetId = await post(
    '/api/v1/eam/assets',
    {
      inventoryNumber: 'FR-001',
      name: 'Foreign rig',
      assetClassId,
      currentObjectId: objectId,
      commissionedAt: '2025-01-01',
      passport: {},
    },
    engineer,
  );
  const maintenanceId = await post(
    '/api/v1/eam/maintenance',
    { assetId, scheduledAt: new Date(Date.now() + 86_400_000).toISOString(), reason: 'planned' },
    engineer,
  );
  const tankId = await post('/api/v1/scm/fuel/tanks', { objectId, code: 'FOREIGN-T', capacityLiters: 1000, minLevelLiters: 100 });
  const requestId = await post('/api/v1/scm/fuel/supply-requests', {
    tankId,
    requestedVolumeLiters: 500,
    desiredDeliveryDate: '2030-01-01',
    justification: 'foreign',
  });
  const supplierId = await post('/api/v1/scm/suppliers', { bin: '000740001307', legalName: 'Other Fuel Supplier' });
  const supplyId = await post('/api/v1/scm/fuel/supplies', { tankId, supplierId, quantityLiters: 100 }, engineer);
  return {
    '/api/v1/eam/asset-classes': assetClassId,
    '/api/v1/eam/assets': assetId,
    '/api/v1/eam/maintenance': maintenanceId,
    '/api/v1/scm/fuel/tanks': tankId,
    '/api/v1/scm/fuel/supply-requests': requestId,
    '/api/v1/scm/fuel/supplies': supplyId,
  };
};
