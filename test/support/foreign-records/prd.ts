import { expect } from 'vitest';
import { call, idempotencyKey, login } from '../operations.js';
import { importOne } from './core.js';
import type { ForeignRecords } from './types.js';

/** A draft shift report of the other organization with an asset usage, drafted by its Engineer (made with the EAM records). */
export const prdForeignRecords: ForeignRecords = async (context) => {
  const engineer = await login(context.stack, 'engineer@other.example.org', 'other-password');
  const objectId = await importOne(context, '/api/v1/core/production-objects', 'prd');
  const report = await call(
    context.stack,
    engineer,
    'POST',
    '/api/v1/prd/shift-reports',
    { productionObjectId: objectId, shiftDate: '2026-01-15', shiftType: 'day' },
    idempotencyKey(),
  );
  expect(report.status, JSON.stringify(report.body)).toBe(201);
  const assets = await call(context.stack, engineer, 'GET', '/api/v1/eam/assets');
  const usage = await call(
    context.stack,
    engineer,
    'POST',
    `/api/v1/prd/shift-reports/${report.body.id as string}/asset-usages`,
    { assetId: assets.body.items[0].id, hoursWorked: 8, meterReadingStart: 100, meterReadingEnd: 108 },
    idempotencyKey(),
  );
  expect(usage.status, JSON.stringify(usage.body)).toBe(201);
  return { '/api/v1/prd/shift-reports': report.body.id as string };
};
