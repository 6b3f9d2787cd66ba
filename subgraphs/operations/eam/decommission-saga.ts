import { LockMode, sql } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { requireState, transition } from '../core/state-machine.js';
import type { SagaDefinition } from '../sagas/saga.js';
import { MaintenanceRecordEntity } from './maintenance-record.entity.js';
import { AssetDecommissionEntity } from './asset-decommission.entity.js';
import { AssetEntity } from './asset.entity.js';
import { lockAsset } from './assets.js';
import { OperationsError } from '../operations.errors.js';
import { EamError } from './eam.errors.js';
import { assetMachine, type AssetState } from './machines.js';
import { decommissionMachine, recordDecommission } from './decommissions.js';

/**
 * The asset-decommission saga (`POST /api/v1/eam/sagas/asset-decommission`): a draft
 * decommission record (its `journal` step), the asset decommissioned (the record applied),
 * then its open maintenance cancelled. Each step undoes itself from what it recorded; the checks (asset, second
 * approver) ran when the saga started.
 */

export interface DecommissionPayload {
  readonly assetId: string;
  readonly coApprovedBy: string;
  readonly reason: string;
}

/** The saga's open decommission record (a run that was compensated left a `failed` one behind). */
async function draftOf(em: EntityManager, sagaId: string): Promise<string | undefined> {
  const row = await em.findOne(AssetDecommissionEntity, { sagaId, status: 'draft' }, { fields: ['id'], disableIdentityMap: true });
  return row?.id;
}

export const assetDecommissionSaga: SagaDefinition<DecommissionPayload> = {
  type: 'eam.asset-decommission',
  steps: [
    {
      name: 'journal',
      async run(em, { sagaId, organizationId, actorId, payload }) {
        // Read, not locked: the asset step locks the asset when it changes it.
        const asset = await em.findOne(AssetEntity, payload.assetId, { fields: ['id', 'currentObjectId'] });
        if (!asset) throw OperationsError.notFound('Asset');
        const id = await recordDecommission(em, {
          organizationId,
          actorId: actorId!,
          assetId: asset.id,
          objectId: asset.currentObjectId,
          reason: payload.reason,
          status: 'draft',
          sagaId,
        });
        return { decommissionId: id };
      },
      async compensate(em, { sagaId }) {
        const draft = await draftOf(em, sagaId);
        if (draft) await transition(em, decommissionMachine, 'fail', draft);
      },
    },
    {
      name: 'asset',
      async run(em, { sagaId, actorId, payload }) {
        const asset = await lockAsset(em, payload.assetId);
        requireState(assetMachine, 'decommission', asset.status, EamError.alreadyDecommissioned);
        await transition(em, assetMachine, 'decommission', asset.id, {
          set: {
            maintenance_id: null,
            decommissioned_by: actorId,
            decommission_co_approved_by: payload.coApprovedBy,
            decommission_reason: payload.reason,
          },
          setSql: { decommissioned_at: 'now()' },
        });
        const draft = await draftOf(em, sagaId);
        if (draft) await transition(em, decommissionMachine, 'apply', draft, { setSql: { occurred_at: 'clock_timestamp()' } });
        return { status: asset.status, maintenanceId: asset.maintenance_id };
      },
      async compensate(em, { sagaId, payload, output }) {
        const before = output as { status: AssetState; maintenanceId: string | null };
        await em.nativeUpdate(
          AssetEntity,
          { id: payload.assetId },
          {
            status: before.status,
            maintenanceId: before.maintenanceId,
            decommissionedBy: null,
            decommissionCoApprovedBy: null,
            decommissionReason: null,
            decommissionedAt: null,
            updatedAt: sql<Date>`now()`,
          },
        );
        // The applied record is taken back to a draft, which the journal step then marks failed.
        await em.nativeUpdate(AssetDecommissionEntity, { sagaId, status: 'applied' }, { status: 'draft' });
      },
    },
    {
      name: 'maintenance',
      async run(em, { actorId, payload }) {
        const records = await em.find(
          MaintenanceRecordEntity,
          { assetId: payload.assetId, status: { $in: ['scheduled', 'inProgress'] } },
          { fields: ['id', 'status'], lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        const open = records.map((record) => ({ id: record.id, status: record.status }));
        const ids = open.map((record) => record.id);
        await em.nativeUpdate(
          MaintenanceRecordEntity,
          { id: { $in: ids } },
          {
            status: 'cancelled',
            cancelledBy: actorId,
            cancellationReason: 'The asset was decommissioned.',
            cancelledAt: sql<Date>`now()`,
            updatedAt: sql<Date>`now()`,
          },
        );
        return { cancelled: open };
      },
      async compensate(em, { output }) {
        for (const record of (output as { cancelled: Array<{ id: string; status: string }> }).cancelled) {
          await em.nativeUpdate(
            MaintenanceRecordEntity,
            { id: record.id },
            {
              status: record.status as 'scheduled' | 'inProgress',
              cancelledBy: null,
              cancellationReason: null,
              cancelledAt: null,
              updatedAt: sql<Date>`now()`,
            },
          );
        }
      },
    },
  ],
};
