import { z } from 'zod';
import { members } from '../access.js';
import { defineOperation } from '../operation.js';
import { OperationsErrorCode } from './errors.js';
import { cursorPaging, ops } from './fields.js';

/**
 * The signed-in user's in-app notifications (`/api/v1/iam/notifications`), e.g. a fuel supply
 * request awaiting their approval. Each is also mailed. Only the user it is for sees it.
 */

const own = members('any', { objectScope: false, userOnly: true, tenant: false });
const base = { service: 'operations', tags: ['iam'], access: own } as const;

export const Notification = z
  .object({
    id: z.uuid(),
    type: z.string().describe('The event that caused it, e.g. `scm.fuel.supply-request.submitted`.'),
    title: z.string(),
    body: z.string(),
    data: z.record(z.string(), z.unknown()).describe('What it is about, e.g. `{supplyRequestId}`.'),
    readAt: z.string().nullable().describe('When the user marked it read (ISO 8601); null while unread.'),
    createdAt: z.string().describe('ISO 8601.'),
  })
  .meta({ id: 'Notification', description: 'A notice to one user of something that asks for their attention.' });

export const iamListNotifications = defineOperation({
  ...base,
  name: 'iamListNotifications',
  kind: 'query',
  summary: 'The signed-in user’s notifications',
  description: 'Newest first; `unread=true` lists only those not yet marked read.',
  input: { query: { unread: z.boolean().optional().describe('Only unread notifications.') } },
  output: Notification,
  paging: cursorPaging(100, 50),
  rest: { method: 'GET', path: '/api/v1/iam/notifications' },
});

export const iamMarkNotificationRead = defineOperation({
  ...base,
  name: 'iamMarkNotificationRead',
  kind: 'mutation',
  summary: 'Mark a notification read',
  description: 'Idempotent: marking it again keeps the first `readAt`. Another user’s notification is answered as missing.',
  input: { path: { id: ops.id() } },
  output: Notification,
  rest: { method: 'POST', path: '/api/v1/iam/notifications/:id/read' },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND],
});

export const NOTIFICATION_CONTRACTS = [iamListNotifications, iamMarkNotificationRead];
