import {
  hrAddBrigadeMember,
  hrBrigadeRoster,
  hrCreateBrigade,
  hrDeleteBrigade,
  hrDisbandBrigade,
  hrGetBrigade,
  hrListBrigades,
  hrUpdateBrigade,
} from '../../../contracts/operations/hr/brigades.contract.js';
import {
  hrArriveOnWatch,
  hrGetPersonnel,
  hrGoOnVacation,
  hrHirePersonnel,
  hrLeaveWatch,
  hrListPersonnel,
  hrReturnFromVacation,
  hrTerminatePersonnel,
  hrTransferPersonnel,
  hrUpdatePersonnel,
} from '../../../contracts/operations/hr/personnel.contract.js';
import { hrListTimesheet } from '../../../contracts/operations/hr/timesheet.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { BrigadesService } from './brigades.service.js';
import { PersonnelStatusService } from './personnel-status.service.js';
import { PersonnelService } from './personnel.service.js';
import { TimesheetService } from './timesheet.service.js';

/** Personnel, brigades and the timesheet, bound to their contracts. */
export function hrOperations(services: Services): Implementation[] {
  const personnel = services.get(PersonnelService);
  const statuses = services.get(PersonnelStatusService);
  const brigades = services.get(BrigadesService);
  const timesheet = services.get(TimesheetService);
  return [
    implement(hrListPersonnel, (input, { ctx }) => personnel.list(ctx.em, input)),
    implement(hrHirePersonnel, (input, { ctx, caller }) => personnel.hire(ctx.em, caller, input)),
    implement(hrGetPersonnel, (input, { ctx }) => personnel.get(ctx.em, input.id)),
    implement(hrUpdatePersonnel, (input, { ctx }) => {
      const { id, ...patch } = input;
      return personnel.update(ctx.em, id, patch);
    }),
    implement(hrTransferPersonnel, (input, { ctx, caller }) => personnel.transfer(ctx.em, caller, input)),
    implement(hrArriveOnWatch, (input, { ctx }) => statuses.arriveOnWatch(ctx.em, input.id, input.arrivalDate)),
    implement(hrLeaveWatch, (input, { ctx }) => statuses.leaveWatch(ctx.em, input.id)),
    implement(hrGoOnVacation, (input, { ctx }) => statuses.goOnVacation(ctx.em, input.id, input.expectedReturnDate)),
    implement(hrReturnFromVacation, (input, { ctx }) => statuses.returnFromVacation(ctx.em, input.id)),
    implement(hrTerminatePersonnel, (input, { ctx }) => statuses.terminate(ctx.em, input)),
    implement(hrListBrigades, (input, { ctx }) => brigades.list(ctx.em, input)),
    implement(hrCreateBrigade, (input, { ctx, caller }) => brigades.create(ctx.em, caller, input)),
    implement(hrGetBrigade, (input, { ctx }) => brigades.get(ctx.em, input.id)),
    implement(hrUpdateBrigade, (input, { ctx }) => brigades.update(ctx.em, input)),
    implement(hrBrigadeRoster, (input, { ctx }) => brigades.roster(ctx.em, input.id)),
    implement(hrAddBrigadeMember, (input, { ctx, caller }) => brigades.addMember(ctx.em, caller, input)),
    implement(hrDisbandBrigade, (input, { ctx }) => brigades.disband(ctx.em, input.id)),
    implement(hrDeleteBrigade, (input, { ctx }) => brigades.softDelete(ctx.em, input.id)),
    implement(hrListTimesheet, (input, { ctx }) => timesheet.list(ctx.em, input)),
  ];
}
