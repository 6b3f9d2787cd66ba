import { InventoryService } from './stock/inventory.service.js';
import { ReceiptService } from './stock/receipt.service.js';
import { RequestService } from './stock/request.service.js';
import { StockLedger } from './stock/stock-ledger.js';
import { TmcItemService } from './stock/tmc-item.service.js';
import { TmcUsageService } from './stock/tmc-usage.service.js';
import { TransferService } from './stock/transfer.service.js';
import { WarehouseService } from './stock/warehouse.service.js';
import { WriteOffService } from './stock/write-off.service.js';
import { stockOperations } from './stock/stock.operations.js';
import { SupplierDetailsService } from './suppliers/supplier-details.service.js';
import { SupplierService } from './suppliers/supplier.service.js';
import { supplierOperations } from './suppliers/suppliers.operations.js';
import type { Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';

/**
 * The suppliers and stock module's services, built once per process. `TmcUsageService` is
 * the entry for other modules' workflows (the shift-report saga writes material usage off
 * stock through it); it has no REST route.
 */
export function scmServices(): object[] {
  const suppliers = new SupplierService();
  const warehouses = new WarehouseService();
  const ledger = new StockLedger();
  return [
    suppliers,
    new SupplierDetailsService(suppliers),
    warehouses,
    ledger,
    new TmcItemService(),
    new ReceiptService(warehouses, ledger),
    new WriteOffService(warehouses, ledger),
    new TransferService(warehouses, ledger),
    new RequestService(warehouses, ledger),
    new InventoryService(warehouses, ledger),
    new TmcUsageService(warehouses, ledger),
  ];
}

/** Every operation of the module bound to its service. */
export const scmOperations = (services: Services): Implementation[] => [...supplierOperations(services), ...stockOperations(services)];
