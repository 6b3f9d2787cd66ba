import { coreForeignRecords } from './core.js';
import { eamForeignRecords } from './eam.js';
import { hrForeignRecords } from './hr.js';
import { identityForeignRecords } from './identity.js';
import { notificationForeignRecords } from './notifications.js';
import { prdForeignRecords } from './prd.js';
import { sagaForeignRecords } from './sagas.js';
import { scmForeignRecords } from './scm.js';
import { sessionForeignRecords } from './sessions.js';
import { webhookForeignRecords } from './webhooks.js';
import type { ForeignRecords } from './types.js';

/** Every module's records of another organization, for the cross-tenant matrix (test/e2e/operations-tenancy.e2e.ts). */
export const FOREIGN_RECORDS: readonly ForeignRecords[] = [
  coreForeignRecords,
  eamForeignRecords,
  hrForeignRecords,
  identityForeignRecords,
  notificationForeignRecords,
  prdForeignRecords,
  sagaForeignRecords,
  scmForeignRecords,
  sessionForeignRecords,
  webhookForeignRecords,
];
