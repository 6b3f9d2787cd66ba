import { SHIFT_REPORT_ENTRY_OPERATIONS } from '../../../contracts/operations/prd/shift-report-entries.contract.js';
import {
  prdApproveShiftReport,
  prdCreateShiftReport,
  prdDeleteShiftReport,
  prdGetShiftReport,
  prdListShiftReports,
  prdRejectShiftReport,
  prdReverseShiftReport,
  prdShiftReportChildren,
  prdSubmitShiftReport,
} from '../../../contracts/operations/prd/shift-reports.contract.js';
import { prdListAssetCoefficients, prdListProductionStatistics } from '../../../contracts/operations/prd/statistics.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { MachineHoursService } from '../eam/machine-hours.js';
import { FuelIssueService } from '../fuel/fuel-issue.service.js';
import { TimesheetService } from '../hr/timesheet.service.js';
import type { SagaEngine } from '../sagas/engine.js';
import { StockLedger } from '../scm/stock/stock-ledger.js';
import { TmcUsageService } from '../scm/stock/tmc-usage.service.js';
import { WarehouseService } from '../scm/stock/warehouse.service.js';
import { coefficientsEffect } from './effects/coefficients.js';
import { fuelEffect } from './effects/fuel.js';
import { machineHoursEffect } from './effects/machine-hours.js';
import { materialsEffect } from './effects/materials.js';
import { statisticsEffect } from './effects/statistics.js';
import { timesheetEffect } from './effects/timesheet.js';
import { ProductionStatisticsService } from './production-statistics.service.js';
import { ShiftReportApprovalService } from './shift-report-approval.service.js';
import { ShiftReportEntriesService } from './shift-report-entries.service.js';
import { shiftReportSagas } from './shift-report-sagas.js';
import { ShiftReportService } from './shift-report.service.js';

/**
 * The shift-report module's services, built once per process; its two sagas are registered with
 * the engine here. The effects reach other modules through those modules' services (fuel issues,
 * TMC usage, machine hours, the timesheet), all stateless, so the module holds its own instances.
 */
export function prdServices(engine: SagaEngine): object[] {
  const timesheet = new TimesheetService();
  const sagas = shiftReportSagas([
    fuelEffect(new FuelIssueService()),
    materialsEffect(new TmcUsageService(new WarehouseService(), new StockLedger())),
    machineHoursEffect(new MachineHoursService()),
    coefficientsEffect,
    statisticsEffect,
    timesheetEffect(timesheet),
  ]);
  engine.register(sagas.approve, sagas.reverse);
  return [
    new ShiftReportService(),
    new ShiftReportEntriesService(),
    new ShiftReportApprovalService(engine, sagas),
    new ProductionStatisticsService(),
    timesheet,
  ];
}

/** Every PRD operation bound to its service. */
export function prdOperations(services: Services): Implementation[] {
  const reports = services.get(ShiftReportService);
  const entries = services.get(ShiftReportEntriesService);
  const approvals = services.get(ShiftReportApprovalService);
  const statistics = services.get(ProductionStatisticsService);
  const kinds = SHIFT_REPORT_ENTRY_OPERATIONS;
  return [
    implement(prdListShiftReports, (input, { ctx }) => reports.list(ctx.em, input)),
    implement(prdCreateShiftReport, (input, { ctx, caller }) => reports.create(ctx.em, caller, input)),
    implement(prdGetShiftReport, (input, { ctx }) => reports.get(ctx.em, input.id)),
    implement(prdShiftReportChildren, (input, { ctx }) => reports.children(ctx.em, input.id)),
    implement(prdSubmitShiftReport, (input, { ctx, caller }) => reports.submit(ctx.em, caller, input.id)),
    implement(prdDeleteShiftReport, (input, { ctx, caller }) => reports.delete(ctx.em, caller, input.id)),
    implement(prdApproveShiftReport, (input, { ctx, caller }) => approvals.approve(ctx.em, caller, input.id)),
    implement(prdRejectShiftReport, (input, { ctx, caller }) => reports.reject(ctx.em, caller, input.id, input.reason)),
    implement(prdReverseShiftReport, (input, { ctx, caller }) => approvals.reverse(ctx.em, caller, input.id, input.reason)),
    implement(kinds.personnel.add, (input, { ctx }) => entries.addPersonnel(ctx.em, input)),
    implement(kinds.assetUsages.add, (input, { ctx }) => entries.addAssetUsage(ctx.em, input)),
    implement(kinds.drilling.add, (input, { ctx }) => entries.addDrilling(ctx.em, input)),
    implement(kinds.blasting.add, (input, { ctx }) => entries.addBlasting(ctx.em, input)),
    implement(kinds.fuel.add, (input, { ctx }) => entries.addFuel(ctx.em, input)),
    implement(kinds.downtime.add, (input, { ctx }) => entries.addDowntime(ctx.em, input)),
    implement(kinds.materials.add, (input, { ctx }) => entries.addMaterial(ctx.em, input)),
    implement(kinds.personnel.update, (input, { ctx }) => entries.updatePersonnel(ctx.em, input)),
    implement(kinds.assetUsages.update, (input, { ctx }) => entries.updateAssetUsage(ctx.em, input)),
    implement(kinds.drilling.update, (input, { ctx }) => entries.updateDrilling(ctx.em, input)),
    implement(kinds.blasting.update, (input, { ctx }) => entries.updateBlasting(ctx.em, input)),
    implement(kinds.fuel.update, (input, { ctx }) => entries.updateFuel(ctx.em, input)),
    implement(kinds.downtime.update, (input, { ctx }) => entries.updateDowntime(ctx.em, input)),
    implement(kinds.materials.update, (input, { ctx }) => entries.updateMaterial(ctx.em, input)),
    implement(kinds.personnel.remove, (input, { ctx }) => entries.delete(ctx.em, 'personnel', input)),
    implement(kinds.assetUsages.remove, (input, { ctx }) => entries.delete(ctx.em, 'assetUsages', input)),
    implement(kinds.drilling.remove, (input, { ctx }) => entries.delete(ctx.em, 'drilling', input)),
    implement(kinds.blasting.remove, (input, { ctx }) => entries.delete(ctx.em, 'blasting', input)),
    implement(kinds.fuel.remove, (input, { ctx }) => entries.delete(ctx.em, 'fuel', input)),
    implement(kinds.downtime.remove, (input, { ctx }) => entries.delete(ctx.em, 'downtime', input)),
    implement(kinds.materials.remove, (input, { ctx }) => entries.delete(ctx.em, 'tmcUsage', input)),
    implement(prdListProductionStatistics, (input, { ctx }) => statistics.statistics(ctx.em, input)),
    implement(prdListAssetCoefficients, (input, { ctx }) => statistics.coefficients(ctx.em, input)),
  ];
}
