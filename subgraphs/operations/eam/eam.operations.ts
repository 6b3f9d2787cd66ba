import { eamCreateAssetClass, eamDeleteAssetClass, eamListAssetClasses } from '../../../contracts/operations/eam/asset-classes.contract.js';
import {
  eamConserveAsset,
  eamCreateAsset,
  eamDecommissionAsset,
  eamGetAsset,
  eamListAssets,
  eamMoveAsset,
  eamReturnAssetFromConservation,
  eamReturnAssetFromRepair,
  eamSendAssetToMaintenance,
  eamSendAssetToRepair,
} from '../../../contracts/operations/eam/assets.contract.js';
import {
  eamCancelMaintenance,
  eamCompleteMaintenance,
  eamGetMaintenance,
  eamListMaintenance,
  eamScheduleMaintenance,
  eamStartMaintenance,
} from '../../../contracts/operations/eam/maintenance.contract.js';
import { eamListMovements } from '../../../contracts/operations/eam/movements.contract.js';
import { eamStartAssetDecommissionSaga } from '../../../contracts/operations/sagas.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { AssetClassService } from './asset-class.service.js';
import { AssetService } from './asset.service.js';
import { MaintenanceService } from './maintenance.service.js';
import { MovementService } from './movements.js';
import { SagaEngine } from '../sagas/engine.js';
import { assetDecommissionSaga } from './decommission-saga.js';

/** The EAM services, built once per process. */
export function eamServices(): object[] {
  const maintenance = new MaintenanceService();
  return [maintenance, new AssetService(maintenance), new AssetClassService(), new MovementService()];
}

/** Every EAM operation bound to its service method. */
export function eamOperations(services: Services): Implementation[] {
  const assets = services.get(AssetService);
  const classes = services.get(AssetClassService);
  const maintenance = services.get(MaintenanceService);
  const movements = services.get(MovementService);
  const sagas = services.get(SagaEngine);
  return [
    implement(eamListAssets, (input, { ctx }) => assets.list(ctx.em, input)),
    implement(eamCreateAsset, (input, { ctx, caller }) => assets.create(ctx.em, caller, input)),
    implement(eamGetAsset, (input, { ctx }) => assets.get(ctx.em, input.id)),
    implement(eamMoveAsset, (input, { ctx, caller }) => assets.move(ctx.em, caller, input.id, input.toObjectId, input.reason)),
    implement(eamSendAssetToMaintenance, (input, { ctx, caller }) =>
      maintenance.openNow(ctx.em, caller, input.id, 'maintenance', input.reason),
    ),
    implement(eamDecommissionAsset, (input, { ctx, caller }) => assets.decommission(ctx.em, caller, input.id, input)),
    implement(eamConserveAsset, (input, { ctx, caller }) => assets.conserve(ctx.em, caller, input.id, input.reason)),
    implement(eamReturnAssetFromConservation, (input, { ctx, caller }) =>
      assets.returnFromConservation(ctx.em, caller, input.id, input.reason),
    ),
    implement(eamSendAssetToRepair, (input, { ctx, caller }) => maintenance.openNow(ctx.em, caller, input.id, 'repair', input.reason)),
    implement(eamReturnAssetFromRepair, (input, { ctx, caller }) => maintenance.returnFromRepair(ctx.em, caller, input.id, input.reason)),
    implement(eamListAssetClasses, (input, { ctx }) => classes.list(ctx.em, input)),
    implement(eamCreateAssetClass, (input, { ctx, caller }) => classes.create(ctx.em, caller, input)),
    implement(eamDeleteAssetClass, (input, { ctx }) => classes.softDelete(ctx.em, input.id)),
    implement(eamListMaintenance, (input, { ctx }) => maintenance.list(ctx.em, input)),
    implement(eamScheduleMaintenance, (input, { ctx, caller }) => maintenance.schedule(ctx.em, caller, input)),
    implement(eamGetMaintenance, (input, { ctx }) => maintenance.get(ctx.em, input.id)),
    implement(eamStartMaintenance, (input, { ctx, caller }) => maintenance.start(ctx.em, caller, input.id)),
    implement(eamCompleteMaintenance, (input, { ctx, caller }) => maintenance.complete(ctx.em, caller, input.id, input.notes)),
    implement(eamCancelMaintenance, (input, { ctx, caller }) => maintenance.cancel(ctx.em, caller, input.id, input.reason)),
    implement(eamListMovements, (input, { ctx }) => movements.list(ctx.em, input)),
    implement(eamStartAssetDecommissionSaga, async (input, { ctx, caller }) => {
      await assets.checkDecommission(ctx.em, caller, input.assetId, input.coApprovedBy);
      const { sagaId } = await sagas.start(ctx.em, assetDecommissionSaga, {
        organizationId: caller.organizationId!,
        actorId: caller.userId,
        payload: { assetId: input.assetId, coApprovedBy: input.coApprovedBy, reason: input.reason },
        entityType: 'Asset',
        entityId: input.assetId,
      });
      return { sagaId, assetId: input.assetId, status: 'enqueued' as const };
    }),
  ];
}
