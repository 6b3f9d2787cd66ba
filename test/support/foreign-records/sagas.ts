import { expect } from 'vitest';
import { call, idempotencyKey, login } from '../operations.js';
import { importOne } from './core.js';
import type { ForeignRecords } from './types.js';

/** A decommission saga of the other organization (its status, events and jobs must not be found). */
export const sagaForeignRecords: ForeignRecords = async (context) => {
  const post = async (path: string, body: unknown, session = context.admin) => {
    const response = await call(context.stack, session, 'POST', path, body, idempotencyKey());
    expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
    return response.body;
  };
  const ceo = await post(
    '/api/v1/iam/users',
    {
      email: 'ceo@other.example.org',
      password: 'other-password',
      name: 'Other CEO',
      roles: ['CEO'],
      organizationId: context.organizationId,
    },
    context.root,
  );
  const engineer = await login(context.stack, 'engineer@other.example.org', 'other-password');
  const objectId = await importOne(context, '/api/v1/core/production-objects', 'sagas');
  const assetClass = await post('/api/v1/eam/asset-classes', { code: 'SAGA', name: 'Saga class' });
  const asset = await post(
    '/api/v1/eam/assets',
    {
      inventoryNumber: 'SG-001',
      name: 'Saga rig',
      assetClassId: assetClass.id,
      currentObjectId: objectId,
      commissionedAt: '2025-01-01',
      passport: {},
    },
    engineer,
  );
  const saga = await post('/api/v1/eam/sagas/asset-decommission', { assetId: asset.id, coApprovedBy: ceo.id, reason: 'foreign saga' });
  return { sagaId: saga.sagaId as string, jobId: `${saga.sagaId as string}__journal`, queue: 'core-saga-steps' };
};
