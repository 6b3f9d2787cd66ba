import { call } from '../operations.js';
import type { ForeignRecords } from './types.js';

/** A sign-in session of the other organization's Admin, as its own list shows it. */
export const sessionForeignRecords: ForeignRecords = async (context) => {
  const listed = await call(context.stack, context.admin, 'GET', '/api/v1/iam/sessions');
  const items = (Array.isArray(listed.body) ? listed.body : listed.body.items) as Array<{ id: string }>;
  return { '/api/v1/iam/sessions': items[0]!.id };
};
