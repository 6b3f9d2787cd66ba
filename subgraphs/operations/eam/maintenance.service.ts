import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type { eamListMaintenance, eamScheduleMaintenance } from '../../../contracts/operations/eam/maintenance.contract.js';
import { MaintenanceRecord, type AssetData, type MaintenanceData } from '../../../contracts/operations/eam/types.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { requireState, transition } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { journalAssetChange } from './asset-journal.js';
import { lockAsset, toAsset, type AssetRow } from './assets.js';
import { EamError } from './eam.errors.js';
import { type MaintenanceRecord as MaintenanceEntity, MaintenanceRecordEntity } from './maintenance-record.entity.js';
import { assetMachine, maintenanceMachine, type MaintenanceState } from './machines.js';

const TABLE = '"operations"."maintenance_record"';
const toMaintenance = recordMapper<MaintenanceData>(MaintenanceRecord);

interface MaintenanceRow {
  readonly id: string;
  readonly asset_id: string;
  readonly kind: 'maintenance' | 'repair';
  readonly status: MaintenanceState;
  readonly [column: string]: unknown;
}

/**
 * Maintenance records and the asset's condition (the asset row is locked first, always,
 * so concurrent actions on one asset never deadlock): starting one puts the (operational)
 * asset under maintenance pointing at it; completing or cancelling the one in progress
 * makes the asset operational again. Sending to maintenance or to repair opens a record
 * already in progress. A repair's start and end are movements of the journal (seed 002's
 * `to_repair`, `from_repair`); maintenance is told by its record alone.
 */
export class MaintenanceService {
  async list(em: EntityManager, input: ContractInput<typeof eamListMaintenance>) {
    const equals = { asset_id: input.assetId, status: input.status };
    return cursorList(em, { table: TABLE, equals, orderBy: 'scheduled_at', direction: 'desc' }, input, toMaintenance);
  }

  async get(em: EntityManager, id: string): Promise<MaintenanceData> {
    return toMaintenance(await this.row(em, id));
  }

  async schedule(em: EntityManager, caller: Principal, input: ContractInput<typeof eamScheduleMaintenance>) {
    const asset = await lockAsset(em, input.assetId);
    requireState(assetMachine, 'schedule maintenance', asset.status);
    return toMaintenance(await this.insert(em, caller, asset, 'maintenance', input.reason, input.scheduledAt));
  }

  async start(em: EntityManager, caller: Principal, id: string): Promise<MaintenanceData> {
    const asset = await lockAsset(em, (await this.row(em, id)).assetId);
    // Only an operational asset goes under maintenance (one record in progress per asset).
    if ((await this.row(em, id)).status === 'scheduled') requireState(assetMachine, 'start maintenance', asset.status);
    const row = await transition(em, maintenanceMachine, 'start', id, {
      set: { performed_by: caller.userId },
      setSql: { started_at: 'now()' },
    });
    await transition(em, assetMachine, 'toMaintenance', asset.id, { set: { maintenance_id: id } });
    return toMaintenance(row);
  }

  async complete(em: EntityManager, caller: Principal, id: string, notes?: string): Promise<MaintenanceData> {
    await lockAsset(em, (await this.row(em, id)).assetId);
    const row = (await transition(em, maintenanceMachine, 'complete', id, {
      set: { notes: notes ?? null },
      setSql: { completed_at: 'now()' },
    })) as MaintenanceRow;
    await this.release(em, caller, row, notes);
    return toMaintenance(row);
  }

  async cancel(em: EntityManager, caller: Principal, id: string, reason: string): Promise<MaintenanceData> {
    await lockAsset(em, (await this.row(em, id)).assetId);
    // Read again under the asset's lock: every change of a record takes that lock first.
    const before = await this.row(em, id);
    const row = (await transition(em, maintenanceMachine, 'cancel', id, {
      set: { cancelled_by: caller.userId, cancellation_reason: reason },
      setSql: { cancelled_at: 'now()' },
    })) as MaintenanceRow;
    if (before.status === 'inProgress') await this.release(em, caller, row, reason);
    return toMaintenance(row);
  }

  /** Send to maintenance or to repair: a record opened and started at once, the asset under it. */
  async openNow(em: EntityManager, caller: Principal, assetId: string, kind: 'maintenance' | 'repair', reason: string): Promise<AssetData> {
    const asset = await lockAsset(em, assetId);
    requireState(assetMachine, kind === 'repair' ? 'toRepair' : 'sendToMaintenance', asset.status);
    const record = await this.insert(em, caller, asset, kind, reason, null);
    await transition(em, maintenanceMachine, 'start', record.id, { set: { performed_by: caller.userId }, setSql: { started_at: 'now()' } });
    const updated = await transition(em, assetMachine, 'toMaintenance', assetId, { set: { maintenance_id: record.id } });
    if (kind === 'repair') await journalAssetChange(em, caller, asset, 'to_repair', { reason, maintenanceId: record.id });
    return toAsset(updated);
  }

  /** Return from repair: completes the repair in progress; planned maintenance is completed through its record. */
  async returnFromRepair(em: EntityManager, caller: Principal, assetId: string, notes?: string): Promise<AssetData> {
    const asset = await lockAsset(em, assetId);
    requireState(assetMachine, 'fromRepair', asset.status);
    const record = await this.row(em, asset.maintenance_id!);
    if (record.kind !== 'repair') throw EamError.notInRepair();
    await this.complete(em, caller, record.id, notes);
    return toAsset(await lockAsset(em, assetId));
  }

  /** Cancels every open record of an asset being decommissioned (the asset itself is changed by the caller). */
  async cancelOpen(em: EntityManager, caller: Principal, asset: AssetRow, reason: string): Promise<void> {
    const open = await em.find(
      MaintenanceRecordEntity,
      { assetId: asset.id, status: { $in: ['scheduled', 'inProgress'] } },
      { fields: ['id'] },
    );
    for (const { id } of open) {
      await transition(em, maintenanceMachine, 'cancel', id, {
        set: { cancelled_by: caller.userId, cancellation_reason: reason },
        setSql: { cancelled_at: 'now()' },
      });
    }
  }

  /** The record as it is now (read again each time: transitions change it in SQL). */
  private async row(em: EntityManager, id: string): Promise<MaintenanceEntity> {
    const record = await em.findOne(MaintenanceRecordEntity, id, { refresh: true });
    if (!record) throw OperationsError.notFound('Maintenance record');
    return record;
  }

  private async insert(
    em: EntityManager,
    caller: Principal,
    asset: AssetRow,
    kind: 'maintenance' | 'repair',
    reason: string,
    scheduledAt: string | null,
  ): Promise<MaintenanceEntity> {
    const record = em.create(MaintenanceRecordEntity, {
      organizationId: asset.organization_id,
      assetId: asset.id,
      objectId: asset.current_object_id,
      kind,
      scheduledAt: scheduledAt === null ? new Date() : new Date(scheduledAt),
      reason,
      createdBy: caller.userId,
    });
    await em.flush();
    return record;
  }

  /** The asset leaves the maintenance (or repair) in progress and is operational again. */
  private async release(em: EntityManager, caller: Principal, record: MaintenanceRow, reason?: string): Promise<void> {
    const asset = await lockAsset(em, record.asset_id);
    await transition(em, assetMachine, 'fromMaintenance', asset.id, { set: { maintenance_id: null } });
    if (record.kind === 'repair') await journalAssetChange(em, caller, asset, 'from_repair', { reason, maintenanceId: record.id });
  }
}
