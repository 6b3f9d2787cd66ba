import { LockMode, sql } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BodyOf, ContractInput } from '../../../contracts/operation.js';
import type { eamCreateAsset, eamDecommissionAsset, eamListAssets } from '../../../contracts/operations/eam/assets.contract.js';
import type { AssetData } from '../../../contracts/operations/eam/types.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { requireState, transition } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { AppUserEntity } from '../iam/app-user.entity.js';
import { ASSET_TABLE, lockAsset, toAsset, visibleObject, type AssetRow } from './assets.js';
import { AssetClassEntity } from './asset-class.entity.js';
import { AssetEntity } from './asset.entity.js';
import { journalAssetChange } from './asset-journal.js';
import { EamError } from './eam.errors.js';
import { MaintenanceRecordEntity } from './maintenance-record.entity.js';
import { assetMachine } from './machines.js';
import type { MaintenanceService } from './maintenance.service.js';
import { recordDecommission } from './decommissions.js';

export type CreateAssetInput = ContractInput<typeof eamCreateAsset>;

/** Active users of the caller's organization holding one of `roles` (users are platform rows: no tenant policy). */
async function isMember(em: EntityManager, organizationId: string | null, userId: string, roles: readonly string[]): Promise<boolean> {
  if (organizationId === null) return false;
  return (await em.count(AppUserEntity, { id: userId, organizationId, active: true, roles: { $overlap: [...roles] } })) > 0;
}

/** Assets: creation, reading, moves between objects, conservation and decommissioning with a second approver. */
export class AssetService {
  constructor(private readonly maintenance: MaintenanceService) {}

  async list(em: EntityManager, input: ContractInput<typeof eamListAssets>) {
    const equals = { current_object_id: input.objectId, status: input.status };
    return cursorList(em, { table: ASSET_TABLE, equals, orderBy: 'created_at', direction: 'desc' }, input, toAsset);
  }

  async get(em: EntityManager, id: string): Promise<AssetData> {
    const asset = await em.findOne(AssetEntity, id);
    if (!asset) throw OperationsError.notFound('Asset');
    return toAsset(asset);
  }

  async create(em: EntityManager, caller: Principal, input: CreateAssetInput): Promise<AssetData> {
    const organizationId = caller.organizationId!;
    const assetClass = await em.findOne(
      AssetClassEntity,
      { id: input.assetClassId, deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_READ, fields: ['id'] },
    );
    if (!assetClass) throw OperationsError.notFound('Asset class');
    await visibleObject(em, input.currentObjectId);
    if (input.responsibleMechanicId && !(await isMember(em, organizationId, input.responsibleMechanicId, ['Mechanic']))) {
      throw EamError.mechanicInvalid();
    }
    // raw SQL: `on conflict do nothing` answers a taken inventory number without aborting the transaction.
    const [row] = await em.execute<AssetRow[]>(
      `insert into ${ASSET_TABLE} ("organization_id", "inventory_number", "name", "asset_class_id", "current_object_id",
         "responsible_mechanic_id", "commissioned_at", "passport")
       values (?, ?, ?, ?, ?, ?, (?::date)::timestamp at time zone 'UTC', ?::jsonb)
       on conflict ("organization_id", "inventory_number") do nothing returning *`,
      [
        organizationId,
        input.inventoryNumber,
        input.name,
        input.assetClassId,
        input.currentObjectId,
        input.responsibleMechanicId ?? null,
        input.commissionedAt,
        JSON.stringify(input.passport),
      ],
    );
    if (!row) throw EamError.inventoryNumberTaken(input.inventoryNumber);
    return toAsset(row);
  }

  async move(em: EntityManager, caller: Principal, id: string, toObjectId: string, reason?: string): Promise<AssetData> {
    const asset = await lockAsset(em, id);
    await visibleObject(em, toObjectId);
    if (asset.status === 'operational' && asset.current_object_id === toObjectId) throw EamError.alreadyAtObject();
    const row = await transition(em, assetMachine, 'move', id, { set: { current_object_id: toObjectId } });
    // Planned maintenance follows the asset, so the new object's people see it.
    await em.nativeUpdate(
      MaintenanceRecordEntity,
      { assetId: id, status: 'scheduled' },
      { objectId: toObjectId, updatedAt: sql<Date>`now()` },
    );
    await journalAssetChange(em, caller, asset, 'transfer_audit', { reason, toObjectId });
    return toAsset(row);
  }

  async conserve(em: EntityManager, caller: Principal, id: string, reason: string): Promise<AssetData> {
    const asset = await lockAsset(em, id);
    const row = await transition(em, assetMachine, 'conserve', id);
    await journalAssetChange(em, caller, asset, 'conservation', { reason });
    return toAsset(row);
  }

  async returnFromConservation(em: EntityManager, caller: Principal, id: string, reason?: string): Promise<AssetData> {
    const asset = await lockAsset(em, id);
    const row = await transition(em, assetMachine, 'returnFromConservation', id);
    await journalAssetChange(em, caller, asset, 'from_conservation', { reason });
    return toAsset(row);
  }

  /**
   * Decommissions with a second approver: an active CEO or Engineer of the caller's
   * organization other than the caller. Open maintenance is cancelled with it.
   */
  async decommission(em: EntityManager, caller: Principal, id: string, input: BodyOf<typeof eamDecommissionAsset>): Promise<AssetData> {
    const asset = await this.checkDecommission(em, caller, id, input.coApprovedBy);
    await this.maintenance.cancelOpen(em, caller, asset, 'The asset was decommissioned.');
    const row = await transition(em, assetMachine, 'decommission', id, {
      set: {
        maintenance_id: null,
        decommissioned_by: caller.userId,
        decommission_co_approved_by: input.coApprovedBy,
        decommission_reason: input.reason,
      },
      setSql: { decommissioned_at: 'now()' },
    });
    await recordDecommission(em, {
      organizationId: asset.organization_id,
      actorId: caller.userId,
      assetId: asset.id,
      objectId: asset.current_object_id,
      reason: input.reason,
      status: 'applied',
    });
    return toAsset(row);
  }

  /**
   * The checks before decommissioning (also of the decommission saga, at its start): the asset
   * (locked) is not decommissioned, and the second approver is an active CEO or Engineer of the
   * organization other than the caller.
   */
  async checkDecommission(em: EntityManager, caller: Principal, id: string, coApprovedBy: string): Promise<AssetRow> {
    const asset = await lockAsset(em, id);
    requireState(assetMachine, 'decommission', asset.status, EamError.alreadyDecommissioned);
    if (coApprovedBy === caller.userId) throw EamError.coApproverIsActor();
    if (!(await isMember(em, caller.organizationId!, coApprovedBy, ['CEO', 'Engineer']))) throw EamError.coApproverInvalid();
    return asset;
  }
}
