import { z } from 'zod';
import { timestamps } from '../fields.js';

/** Records of the EAM module: asset classes, assets, maintenance records and the movements journal. */

const at = () => z.string().describe('ISO 8601.');
const nullableAt = () => z.string().nullable().describe('ISO 8601, null until it happens.');

export const AssetStatus = z
  .enum(['operational', 'maintenance', 'conserved', 'decommissioned'])
  .meta({ id: 'AssetStatus', description: 'Where an asset is in its life.' });

export const MaintenanceStatus = z
  .enum(['scheduled', 'inProgress', 'completed', 'cancelled'])
  .meta({ id: 'MaintenanceStatus', description: 'The state of a maintenance record.' });

export const MaintenanceKind = z
  .enum(['maintenance', 'repair'])
  .meta({ id: 'MaintenanceKind', description: '`maintenance`: planned or sent to maintenance; `repair`: opened by `to-repair`.' });

export const MovementOp = z.enum(['transfer_audit', 'conservation', 'from_conservation', 'to_repair', 'from_repair']).meta({
  id: 'MovementOp',
  description:
    'What moved the asset (seed 002): `transfer_audit` a move between objects; `conservation`/`from_conservation` and `to_repair`/`from_repair` into and out of those conditions. Maintenance is recorded by its maintenance record, a decommission by the asset itself; both publish their events.',
});

export const MovementStatus = z.enum(['draft', 'applied', 'failed', 'cancelled']).meta({
  id: 'MovementStatus',
  description:
    'The seed’s states of an entry: `draft` planned, `applied` in effect, `cancelled` a draft called off, `failed` an attempt that failed. Every movement action takes effect at once, so its entry is `applied`.',
});

export const AssetClass = z
  .object({
    id: z.uuid(),
    code: z.string().describe('Business key within the organization; maintenance norms refer to it as `assetClassCode`.'),
    name: z.string(),
    description: z.string(),
    active: z.boolean(),
    ...timestamps,
  })
  .meta({ id: 'AssetClass', description: 'A kind of asset (drill rig, dump truck…).' });

export const Asset = z
  .object({
    id: z.uuid(),
    inventoryNumber: z.string(),
    name: z.string(),
    assetClassId: z.uuid(),
    currentObjectId: z.uuid().describe('The production object the asset is at.'),
    responsibleMechanicId: z.uuid().nullable(),
    status: AssetStatus,
    maintenanceId: z.uuid().nullable().describe('The maintenance record in progress while the asset is under maintenance or in repair.'),
    commissionedAt: at(),
    passport: z.record(z.string(), z.unknown()).describe('The technical passport, as given.'),
    decommissionedAt: nullableAt(),
    decommissionedBy: z.uuid().nullable(),
    decommissionCoApprovedBy: z.uuid().nullable().describe('The second approver (a CEO or Engineer).'),
    decommissionReason: z.string().nullable(),
    machineHours: z.number().describe('Hours worked, summed over approved shift reports.'),
    meterReading: z.number().nullable().describe('The highest meter reading of approved shift reports, or null.'),
    ...timestamps,
  })
  .meta({ id: 'Asset', description: 'A machine or piece of equipment, with its passport.' });

export const MaintenanceRecord = z
  .object({
    id: z.uuid(),
    assetId: z.uuid(),
    kind: MaintenanceKind,
    status: MaintenanceStatus,
    scheduledAt: at(),
    startedAt: nullableAt(),
    completedAt: nullableAt(),
    cancelledAt: nullableAt(),
    cancelledBy: z.uuid().nullable(),
    cancellationReason: z.string().nullable(),
    reason: z.string().nullable(),
    notes: z.string().nullable().describe('Given when completed.'),
    performedBy: z.uuid().nullable().describe('Who started the work.'),
    objectId: z.uuid().describe('The asset’s production object.'),
    ...timestamps,
  })
  .meta({ id: 'MaintenanceRecord', description: 'A maintenance (or repair) of one asset.' });

export const Movement = z
  .object({
    id: z.uuid(),
    assetId: z.uuid(),
    op: MovementOp,
    status: MovementStatus,
    fromObjectId: z.uuid().nullable(),
    toObjectId: z.uuid().nullable(),
    actorId: z.uuid().nullable(),
    occurredAt: at(),
    reason: z.string().nullable(),
    maintenanceId: z.uuid().nullable(),
    ...timestamps,
  })
  .meta({ id: 'Movement', description: 'One entry of the movements journal.' });

export type AssetData = z.output<typeof Asset>;
export type AssetClassData = z.output<typeof AssetClass>;
export type MaintenanceData = z.output<typeof MaintenanceRecord>;
export type MovementData = z.output<typeof Movement>;
export type MovementOpValue = z.output<typeof MovementOp>;
export type MovementStatusValue = z.output<typeof MovementStatus>;
