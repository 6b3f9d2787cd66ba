import { z } from 'zod';
import { members } from '../access.js';
import { defineOperation } from '../operation.js';
import { OperationsErrorCode } from './errors.js';
import { ops } from './fields.js';

/** The audit log and the trash of soft-deleted records (seed 002, Audit and Trash). */

const EVERY_ROLE = ['Admin', 'CEO', 'Engineer', 'Mechanic', 'Foreman', 'OtibSpecialist', 'Supply'] as const;

/**
 * Every entity type the audit log records: the `entity` each audited table's trigger
 * writes (subgraphs/operations/migrations/tenant-tables.ts). A test compares it with the
 * triggers of a migrated database, so a newly audited table cannot go unlisted.
 */
export const AUDIT_ENTITY_TYPES = [
  'Asset',
  'AssetClass',
  'AssetDecommission',
  'AssetHoursEntry',
  'AssetMovement',
  'AssetShiftCoefficient',
  'Brigade',
  'BrigadeMembership',
  'Document',
  'DowntimeCategory',
  'FuelIssue',
  'FuelSupply',
  'FuelSupplyRequest',
  'FuelTank',
  'HseIncidentClassifier',
  'MaintenanceNorm',
  'MaintenanceRecord',
  'OidcClient',
  'Organization',
  'Personnel',
  'PersonnelTransfer',
  'Position',
  'ProductionObject',
  'ProductionStatistic',
  'ProductionStatisticEntry',
  'ShiftAssetUsage',
  'ShiftBlastingEntry',
  'ShiftDowntimeEntry',
  'ShiftDrillingEntry',
  'ShiftFuelEntry',
  'ShiftMaterialUsage',
  'ShiftPersonnelEntry',
  'ShiftReport',
  'StockBalance',
  'Supplier',
  'SupplierBankAccount',
  'SupplierContact',
  'SystemRole',
  'TimesheetEntry',
  'TmcCategory',
  'TmcInventory',
  'TmcInventoryLine',
  'TmcItem',
  'TmcMovement',
  'TmcReceipt',
  'TmcReceiptLine',
  'TmcRequest',
  'TmcRequestLine',
  'TmcTransfer',
  'TmcTransferLine',
  'TmcWriteOff',
  'TmcWriteOffLine',
  'User',
  'Warehouse',
  'WebhookEndpoint',
] as const;

const AuditEntityType = z.enum(AUDIT_ENTITY_TYPES).meta({ id: 'AuditEntityType', description: 'The kind of record a change was made to.' });

export const AuditEntry = z
  .object({
    id: z.uuid(),
    at: z.string().describe('When the change was committed (ISO 8601).'),
    actorId: z.uuid().nullable(),
    organizationId: z.uuid().nullable(),
    entityType: AuditEntityType,
    entityId: z.string(),
    action: z.enum(['create', 'update', 'delete']).meta({ id: 'AuditAction' }),
    operation: z.string().nullable().describe('The operation that made the change, e.g. `coreCreateOrganization`.'),
    changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })).describe('Changed fields, before and after.'),
    requestId: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry', description: 'One change of one record.' });

export const coreAuditHistory = defineOperation({
  service: 'operations',
  name: 'coreAuditHistory',
  kind: 'query',
  summary: 'History of an entity',
  description: 'Newest first; `nextCursor` is the `at` of the last item.',
  tags: ['core'],
  access: members(['Admin', 'CEO'], { objectScope: false }),
  input: {
    query: {
      entityType: AuditEntityType,
      entityId: z.uuid({ version: 'v4' }),
    },
  },
  output: AuditEntry,
  paging: { kind: 'cursor', limit: { min: 1, max: 200, default: 50 }, cursor: 'The `at` (date-time) of the previous page’s last item.' },
  rest: { method: 'GET', path: '/api/v1/core/audit' },
});

export const coreTrashEntities = defineOperation({
  service: 'operations',
  name: 'coreTrashEntities',
  kind: 'query',
  summary: 'Entity types that can be soft-deleted',
  tags: ['core'],
  access: members([...EVERY_ROLE], { objectScope: false }),
  output: z.object({ entities: z.array(z.string()) }).meta({ id: 'TrashEntities' }),
  rest: { method: 'GET', path: '/api/v1/core/trash' },
});

export const coreTrashRows = defineOperation({
  service: 'operations',
  name: 'coreTrashRows',
  kind: 'query',
  summary: 'Soft-deleted rows of an entity',
  description: 'In the caller’s organization, newest deletion first.',
  tags: ['core'],
  access: members(['Admin', 'CEO'], { objectScope: false }),
  input: {
    path: { entity: z.string().min(1).max(64).describe('Kebab-case slug, e.g. `production-objects`.') },
    query: { limit: z.int().min(1).max(200).default(50) },
  },
  output: z.object({ entity: z.string(), rows: z.array(z.record(z.string(), z.unknown())), count: z.int() }).meta({ id: 'TrashRows' }),
  rest: { method: 'GET', path: '/api/v1/core/trash/:entity' },
  errors: [OperationsErrorCode.TRASH_ENTITY_UNKNOWN],
});

export const coreTrashRestore = defineOperation({
  service: 'operations',
  name: 'coreTrashRestore',
  kind: 'mutation',
  summary: 'Restore a soft-deleted row',
  description: 'Clears `deletedAt` after re-checking the business key against active rows.',
  tags: ['core'],
  access: members(['Admin', 'CEO'], { objectScope: false }),
  input: { path: { entity: z.string().min(1).max(64), id: ops.id() } },
  output: z.object({ id: z.uuid() }).meta({ id: 'Restored' }),
  rest: { method: 'POST', path: '/api/v1/core/trash/:entity/:id/restore' },
  errors: [
    OperationsErrorCode.TRASH_ENTITY_UNKNOWN,
    OperationsErrorCode.RECORD_NOT_FOUND,
    OperationsErrorCode.TRASH_RESTORE_UNIQUE_CONFLICT,
  ],
});
