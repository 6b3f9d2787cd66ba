import { z } from 'zod';
import { defineEvent, operationEvents, type EventContract } from './event.js';

/**
 * Every domain event of the operations service, declared once. Events published by the
 * pipeline carry the result of their operation; the others a payload of their own.
 */

const uuid = () => z.uuid();

const ASSETS = operationEvents('eam.asset', 'Asset', {
  created: 'eamCreateAsset',
  moved: 'eamMoveAsset',
  'sent-to-maintenance': 'eamSendAssetToMaintenance',
  decommissioned: 'eamDecommissionAsset',
  conserved: 'eamConserveAsset',
  'returned-from-conservation': 'eamReturnAssetFromConservation',
  'sent-to-repair': 'eamSendAssetToRepair',
  'returned-from-repair': 'eamReturnAssetFromRepair',
});

const ASSET_CLASSES = operationEvents('eam.asset-class', 'Asset class', { created: 'eamCreateAssetClass', deleted: 'eamDeleteAssetClass' });

const MAINTENANCE = operationEvents('eam.maintenance', 'Maintenance', {
  scheduled: 'eamScheduleMaintenance',
  started: 'eamStartMaintenance',
  completed: 'eamCompleteMaintenance',
  cancelled: 'eamCancelMaintenance',
});

const DECOMMISSION_SAGAS = operationEvents('eam.asset-decommission', 'Asset decommission', { started: 'eamStartAssetDecommissionSaga' });

const FUEL = [
  ...operationEvents('scm.fuel.tank', 'Fuel tank', { created: 'scmCreateFuelTank', 'min-level-set': 'scmSetFuelTankMinLevel' }),
  defineEvent({
    name: 'scm.fuel.tank.low-stock',
    summary: 'A fuel tank fell below its minimum level',
    payload: z.object({
      tankId: uuid(),
      objectId: uuid(),
      code: z.string(),
      currentBalanceLiters: z.string().describe('Decimal litres.'),
      minLevelLiters: z.string().nullable().describe('Decimal litres.'),
    }),
  }),
  ...operationEvents('scm.fuel.supply-request', 'Fuel supply request', {
    created: 'scmCreateFuelSupplyRequest',
    updated: 'scmUpdateFuelSupplyRequest',
    approved: 'scmApproveFuelSupplyRequest',
    rejected: 'scmRejectFuelSupplyRequest',
    returned: 'scmReturnFuelSupplyRequest',
    fulfilled: 'scmLinkFuelSupply',
  }),
  defineEvent({
    name: 'scm.fuel.supply-request.submitted',
    summary: 'A fuel supply request was submitted; its approvers are notified',
    payload: z.object({
      supplyRequestId: uuid(),
      tankId: uuid(),
      objectId: uuid(),
      requestedVolumeLiters: z.string().describe('Decimal litres.'),
      desiredDeliveryDate: z.string(),
      initiatorId: uuid(),
      approverRoles: z.array(z.string()).describe('The seed’s approver roles; who is notified is read from the roles book.'),
    }),
  }),
  ...operationEvents('scm.fuel.supply', 'Fuel supply', { recorded: 'scmRecordFuelSupply', reversed: 'scmReverseFuelSupply' }),
];

const SUPPLIERS = [
  ...operationEvents('scm.supplier', 'Supplier', {
    created: 'scmCreateSupplier',
    submitted: 'scmSubmitSupplier',
    activated: 'scmActivateSupplier',
    suspended: 'scmSuspendSupplier',
    unblocked: 'scmUnblockSupplier',
    archived: 'scmArchiveSupplier',
    'contact-created': 'scmCreateSupplierContact',
    'primary-contact-set': 'scmSetPrimarySupplierContact',
    'bank-account-created': 'scmCreateSupplierBankAccount',
    'primary-bank-account-set': 'scmSetPrimarySupplierBankAccount',
  }),
  defineEvent({
    name: 'scm.supplier.updated',
    summary: 'A supplier’s bank details were changed',
    payload: z.object({
      supplierId: uuid(),
      bankAccountId: uuid(),
      changedFields: z.array(z.string()),
      reason: z.string(),
      actorId: uuid().nullable(),
    }),
  }),
];

const STOCK = [
  ...operationEvents('scm.warehouse', 'Warehouse', { created: 'scmCreateWarehouse', 'min-stock-set': 'scmSetWarehouseMinStock' }),
  ...operationEvents('scm.tmc-item', 'Stock item', {
    created: 'scmCreateTmcItem',
    updated: 'scmUpdateTmcItem',
    deactivated: 'scmDeactivateTmcItem',
  }),
  ...operationEvents('scm.tmc-receipt', 'Stock receipt', { registered: 'scmRegisterTmcReceipt' }),
  ...operationEvents('scm.tmc-write-off', 'Stock write-off', { recorded: 'scmWriteOffTmc' }),
  ...operationEvents('scm.tmc-transfer', 'Stock transfer', { issued: 'scmIssueTmcTransfer', confirmed: 'scmConfirmTmcTransfer' }),
  ...operationEvents('scm.tmc-request', 'Stock request', {
    created: 'scmCreateTmcRequest',
    submitted: 'scmSubmitTmcRequest',
    approved: 'scmApproveTmcRequest',
    rejected: 'scmRejectTmcRequest',
    returned: 'scmReturnTmcRequest',
    started: 'scmStartTmcRequest',
    closed: 'scmCloseTmcRequest',
  }),
  ...operationEvents('scm.tmc-inventory', 'Stock inventory', { started: 'scmStartTmcInventory', completed: 'scmCompleteTmcInventory' }),
];

const PERSONNEL = operationEvents('hr.personnel', 'Employee', {
  hired: 'hrHirePersonnel',
  updated: 'hrUpdatePersonnel',
  transferred: 'hrTransferPersonnel',
  'arrived-on-watch': 'hrArriveOnWatch',
  'left-watch': 'hrLeaveWatch',
  'went-on-vacation': 'hrGoOnVacation',
  'returned-from-vacation': 'hrReturnFromVacation',
  terminated: 'hrTerminatePersonnel',
});

const BRIGADES = operationEvents('hr.brigade', 'Brigade', {
  created: 'hrCreateBrigade',
  updated: 'hrUpdateBrigade',
  'member-added': 'hrAddBrigadeMember',
  disbanded: 'hrDisbandBrigade',
  deleted: 'hrDeleteBrigade',
});

const shiftReportSaga = z.object({ shiftReportId: uuid(), sagaId: uuid(), actorId: uuid().nullable() });

const SHIFT_REPORTS = [
  ...operationEvents('prd.shift-report', 'Shift report', {
    created: 'prdCreateShiftReport',
    submitted: 'prdSubmitShiftReport',
    'approval-started': 'prdApproveShiftReport',
    'reversal-started': 'prdReverseShiftReport',
    'personnel-added': 'prdAddShiftPersonnel',
    'asset-usage-added': 'prdAddShiftAssetUsage',
    'drilling-added': 'prdAddShiftDrilling',
    'blasting-added': 'prdAddShiftBlasting',
    'fuel-added': 'prdAddShiftFuel',
    'downtime-added': 'prdAddShiftDowntime',
    'material-added': 'prdAddShiftMaterial',
    deleted: 'prdDeleteShiftReport',
    'personnel-corrected': 'prdUpdateShiftPersonnel',
    'asset-usage-corrected': 'prdUpdateShiftAssetUsage',
    'drilling-corrected': 'prdUpdateShiftDrilling',
    'blasting-corrected': 'prdUpdateShiftBlasting',
    'fuel-corrected': 'prdUpdateShiftFuel',
    'downtime-corrected': 'prdUpdateShiftDowntime',
    'material-corrected': 'prdUpdateShiftMaterial',
    'personnel-removed': 'prdDeleteShiftPersonnel',
    'asset-usage-removed': 'prdDeleteShiftAssetUsage',
    'drilling-removed': 'prdDeleteShiftDrilling',
    'blasting-removed': 'prdDeleteShiftBlasting',
    'fuel-removed': 'prdDeleteShiftFuel',
    'downtime-removed': 'prdDeleteShiftDowntime',
    'material-removed': 'prdDeleteShiftMaterial',
  }),
  defineEvent({
    name: 'prd.shift-report.rejected',
    summary: 'A submitted shift report was rejected',
    payload: z.object({
      shiftReportId: uuid(),
      productionObjectId: uuid(),
      shiftDate: z.string(),
      shiftType: z.string(),
      reason: z.string(),
      actorId: uuid().nullable(),
    }),
  }),
  defineEvent({ name: 'prd.shift-report.approved', summary: 'A shift report’s approval saga completed', payload: shiftReportSaga }),
  defineEvent({
    name: 'prd.shift-report.approval-compensated',
    summary: 'A shift report’s approval saga failed and was undone',
    payload: shiftReportSaga.extend({ cause: z.string() }),
  }),
  defineEvent({
    name: 'prd.shift-report.reversed',
    summary: 'A shift report’s reversal saga completed',
    payload: shiftReportSaga.extend({ reason: z.string().nullable(), originalApproveSagaId: uuid().nullable() }),
  }),
  defineEvent({
    name: 'prd.shift-report.reversal-compensated',
    summary: 'A shift report’s reversal saga failed and was undone',
    payload: shiftReportSaga.extend({ cause: z.string() }),
  }),
];

const DOCUMENTS = operationEvents('core.document', 'Document', {
  'upload-started': 'coreInitiateDocumentUpload',
  uploaded: 'coreConfirmDocumentUpload',
});

const ORGANIZATIONS = operationEvents('core.organization', 'Organization', {
  updated: 'coreUpdateOrganization',
  deactivated: 'coreDeactivateOrganization',
  reactivated: 'coreReactivateOrganization',
});

const REFERENCE_BOOKS = [
  ...operationEvents('core.production-object', 'Production object', {
    updated: 'updateProductionObject',
    deleted: 'deleteProductionObject',
  }),
  ...operationEvents('core.tmc-category', 'Stock category', { updated: 'updateTmcCategory', deleted: 'deleteTmcCategory' }),
  ...operationEvents('core.downtime-category', 'Downtime category', {
    updated: 'updateDowntimeCategory',
    deleted: 'deleteDowntimeCategory',
  }),
  ...operationEvents('core.hse-incident-classifier', 'Incident classifier', {
    updated: 'updateHseIncidentClassifier',
    deleted: 'deleteHseIncidentClassifier',
  }),
  ...operationEvents('hr.position', 'Position', { updated: 'updatePosition', deleted: 'deletePosition' }),
  ...operationEvents('hr.system-role', 'System role', { updated: 'updateSystemRole', deleted: 'deleteSystemRole' }),
  ...operationEvents('core.record', 'Deleted record', { restored: 'coreTrashRestore' }),
  defineEvent({
    name: 'core.reference-book.imported',
    summary: 'An import into a reference book was committed',
    payload: z.object({ batchId: uuid(), book: z.string(), mode: z.string(), applied: z.int() }),
  }),
];

const WEBHOOKS = [
  defineEvent({
    name: 'webhook.ping',
    summary: 'A test event sent to one endpoint (`POST …/ping`), whatever its event types',
    payload: z.object({ endpointId: uuid() }),
  }),
];

/** Every event type of the operations service. */
export const OPERATIONS_EVENTS: readonly EventContract[] = [
  ...ASSETS,
  ...ASSET_CLASSES,
  ...MAINTENANCE,
  ...DECOMMISSION_SAGAS,
  ...FUEL,
  ...SUPPLIERS,
  ...STOCK,
  ...PERSONNEL,
  ...BRIGADES,
  ...SHIFT_REPORTS,
  ...DOCUMENTS,
  ...ORGANIZATIONS,
  ...REFERENCE_BOOKS,
  ...WEBHOOKS,
];

{
  const seen = new Set<string>();
  for (const event of OPERATIONS_EVENTS) {
    if (seen.has(event.name)) throw new Error(`event ${event.name} is declared twice`);
    seen.add(event.name);
  }
}

/** Event types a subscription pattern may name. */
export const OPERATIONS_EVENT_NAMES: readonly string[] = OPERATIONS_EVENTS.map((event) => event.name);
