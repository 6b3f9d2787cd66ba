import { DocumentEntity } from './documents/document.entity.js';
import { AssetClassEntity } from './eam/asset-class.entity.js';
import { AssetEntity } from './eam/asset.entity.js';
import { AssetHoursEntryEntity } from './eam/asset-hours-entry.entity.js';
import { AssetDecommissionEntity } from './eam/asset-decommission.entity.js';
import { AssetMovementEntity } from './eam/asset-movement.entity.js';
import { MaintenanceRecordEntity } from './eam/maintenance-record.entity.js';
import { FuelIssueEntity, FuelSupplyEntity } from './fuel/fuel-ledger.entity.js';
import { FuelSupplyRequestEntity } from './fuel/fuel-supply-request.entity.js';
import { FuelTankEntity } from './fuel/fuel-tank.entity.js';
import { BrigadeEntity, BrigadeMembershipEntity } from './hr/brigade.entity.js';
import { PersonnelEntity, PersonnelTransferEntity } from './hr/personnel.entity.js';
import { TimesheetEntryEntity } from './hr/timesheet-entry.entity.js';
import { AssetShiftCoefficientEntity } from './prd/asset-shift-coefficient.entity.js';
import { ProductionStatisticEntity, ProductionStatisticEntryEntity } from './prd/production-statistic.entity.js';
import { SHIFT_ENTRY_ENTITIES } from './prd/shift-entries.entity.js';
import { ShiftReportEntity } from './prd/shift-report.entity.js';
import { StockBalanceEntity } from './scm/stock/stock-balance.entity.js';
import { TmcInventoryEntity, TmcInventoryLineEntity } from './scm/stock/tmc-inventory.entity.js';
import { TmcItemEntity } from './scm/stock/tmc-item.entity.js';
import { TmcMovementEntity } from './scm/stock/tmc-movement.entity.js';
import { TmcReceiptEntity, TmcReceiptLineEntity } from './scm/stock/tmc-receipt.entity.js';
import { TmcRequestEntity, TmcRequestLineEntity } from './scm/stock/tmc-request.entity.js';
import { TmcTransferEntity, TmcTransferLineEntity } from './scm/stock/tmc-transfer.entity.js';
import { TmcWriteOffEntity, TmcWriteOffLineEntity } from './scm/stock/tmc-write-off.entity.js';
import { WarehouseEntity } from './scm/stock/warehouse.entity.js';
import { SupplierBankAccountEntity, SupplierContactEntity, SupplierEntity } from './scm/suppliers/supplier.entity.js';

/** The entities of the operations domain modules (EAM, fuel, SCM, HR, documents, PRD), one per table. */
export const DOMAIN_ENTITIES = [
  AssetClassEntity,
  AssetEntity,
  MaintenanceRecordEntity,
  AssetMovementEntity,
  AssetDecommissionEntity,
  AssetHoursEntryEntity,
  FuelTankEntity,
  FuelSupplyRequestEntity,
  FuelSupplyEntity,
  FuelIssueEntity,
  SupplierEntity,
  SupplierContactEntity,
  SupplierBankAccountEntity,
  WarehouseEntity,
  TmcItemEntity,
  StockBalanceEntity,
  TmcMovementEntity,
  TmcReceiptEntity,
  TmcReceiptLineEntity,
  TmcWriteOffEntity,
  TmcWriteOffLineEntity,
  TmcTransferEntity,
  TmcTransferLineEntity,
  TmcRequestEntity,
  TmcRequestLineEntity,
  TmcInventoryEntity,
  TmcInventoryLineEntity,
  PersonnelEntity,
  PersonnelTransferEntity,
  BrigadeEntity,
  BrigadeMembershipEntity,
  TimesheetEntryEntity,
  DocumentEntity,
  ShiftReportEntity,
  ...SHIFT_ENTRY_ENTITIES,
  AssetShiftCoefficientEntity,
  ProductionStatisticEntity,
  ProductionStatisticEntryEntity,
];
