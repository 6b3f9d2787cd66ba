import { expect } from 'vitest';
import { call } from '../operations.js';
import type { ForeignRecords } from './types.js';

/** An API key and a user of the other organization (revoke, rotate, ban and unban must not find them). */
export const identityForeignRecords: ForeignRecords = async (context) => {
  const created = await call(context.stack, context.admin, 'POST', '/api/v1/api-keys', { label: 'foreign' });
  expect(created.status).toBe(201);
  return { keyId: created.body.api_key.id as string, '/api/v1/iam/users': context.admin.userId };
};
