import { scmListFuelSupplies, scmRecordFuelSupply, scmReverseFuelSupply } from '../../../contracts/operations/fuel/supplies.contract.js';
import {
  scmApproveFuelSupplyRequest,
  scmCreateFuelSupplyRequest,
  scmGetFuelSupplyRequest,
  scmLinkFuelSupply,
  scmListFuelSupplyRequests,
  scmRejectFuelSupplyRequest,
  scmReturnFuelSupplyRequest,
  scmSubmitFuelSupplyRequest,
  scmUpdateFuelSupplyRequest,
} from '../../../contracts/operations/fuel/supply-requests.contract.js';
import {
  scmCreateFuelTank,
  scmGetFuelTank,
  scmListFuelTanks,
  scmSetFuelTankMinLevel,
} from '../../../contracts/operations/fuel/tanks.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { FuelIssueService } from './fuel-issue.service.js';
import type { NotificationsService } from '../iam/notifications.service.js';
import { SupplyRequestService } from './supply-request.service.js';
import { SupplyService } from './supply.service.js';
import { TankService } from './tank.service.js';

/** The fuel services, built once per process (`FuelIssueService` serves the shift-report saga, not a route). */
export function fuelServices(notifications?: NotificationsService): object[] {
  return [new TankService(), new SupplyRequestService(notifications), new SupplyService(), new FuelIssueService()];
}

/** Every fuel operation bound to its service method. */
export function fuelOperations(services: Services): Implementation[] {
  const tanks = services.get(TankService);
  const requests = services.get(SupplyRequestService);
  const supplies = services.get(SupplyService);
  return [
    implement(scmListFuelTanks, (input, { ctx }) => tanks.list(ctx.em, input)),
    implement(scmCreateFuelTank, (input, { ctx, caller }) => tanks.create(ctx.em, caller, input)),
    implement(scmGetFuelTank, (input, { ctx }) => tanks.get(ctx.em, input.id)),
    implement(scmSetFuelTankMinLevel, (input, { ctx }) => tanks.setMinLevel(ctx.em, input.id, input.minLevelLiters)),
    implement(scmListFuelSupplyRequests, (input, { ctx }) => requests.list(ctx.em, input)),
    implement(scmCreateFuelSupplyRequest, (input, { ctx, caller }) => requests.create(ctx.em, caller, input)),
    implement(scmGetFuelSupplyRequest, (input, { ctx }) => requests.get(ctx.em, input.id)),
    implement(scmUpdateFuelSupplyRequest, (input, { ctx }) => {
      const { id, ...patch } = input;
      return requests.update(ctx.em, id, patch);
    }),
    implement(scmSubmitFuelSupplyRequest, (input, { ctx }) => requests.submit(ctx.em, input.id)),
    implement(scmApproveFuelSupplyRequest, (input, { ctx, caller }) => requests.approve(ctx.em, caller, input.id, input.comment)),
    implement(scmRejectFuelSupplyRequest, (input, { ctx, caller }) => requests.reject(ctx.em, caller, input.id, input.reason)),
    implement(scmReturnFuelSupplyRequest, (input, { ctx }) => requests.returnForRework(ctx.em, input.id, input.comment)),
    implement(scmLinkFuelSupply, (input, { ctx }) => requests.linkSupply(ctx.em, input.id, input)),
    implement(scmListFuelSupplies, (input, { ctx }) => supplies.list(ctx.em, input)),
    implement(scmRecordFuelSupply, (input, { ctx, caller }) => supplies.record(ctx.em, caller, input)),
    implement(scmReverseFuelSupply, (input, { ctx, caller }) => supplies.reverse(ctx.em, caller, input.id, input)),
  ];
}
