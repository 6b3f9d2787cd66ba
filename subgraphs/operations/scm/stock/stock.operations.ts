import {
  scmCreateTmcItem,
  scmDeactivateTmcItem,
  scmGetTmcItem,
  scmListTmcItems,
  scmUpdateTmcItem,
} from '../../../../contracts/operations/scm/tmc-items.contract.js';
import {
  scmCompleteTmcInventory,
  scmGetTmcInventory,
  scmListTmcInventories,
  scmStartTmcInventory,
} from '../../../../contracts/operations/scm/tmc-inventories.contract.js';
import {
  scmConfirmTmcTransfer,
  scmGetTmcTransfer,
  scmIssueTmcTransfer,
  scmListTmcTransfers,
  scmRegisterTmcReceipt,
  scmWriteOffTmc,
} from '../../../../contracts/operations/scm/tmc-movements.contract.js';
import {
  scmApproveTmcRequest,
  scmCloseTmcRequest,
  scmCreateTmcRequest,
  scmGetTmcRequest,
  scmListTmcRequests,
  scmRejectTmcRequest,
  scmReturnTmcRequest,
  scmStartTmcRequest,
  scmSubmitTmcRequest,
} from '../../../../contracts/operations/scm/tmc-requests.contract.js';
import {
  scmCreateWarehouse,
  scmGetWarehouse,
  scmListWarehouses,
  scmSetWarehouseMinStock,
  scmTmcBalances,
} from '../../../../contracts/operations/scm/warehouses.contract.js';
import { implement, type Implementation } from '../../../shared/contracts/implementation.js';
import type { Services } from '../../../shared/subgraph.js';
import { InventoryService } from './inventory.service.js';
import { ReceiptService } from './receipt.service.js';
import { RequestService } from './request.service.js';
import { TmcItemService } from './tmc-item.service.js';
import { TransferService } from './transfer.service.js';
import { WarehouseService } from './warehouse.service.js';
import { WriteOffService } from './write-off.service.js';

/** Warehouses, items and stock documents bound to their services. */
export function stockOperations(services: Services): Implementation[] {
  const warehouses = services.get(WarehouseService);
  const items = services.get(TmcItemService);
  const receipts = services.get(ReceiptService);
  const writeOffs = services.get(WriteOffService);
  const transfers = services.get(TransferService);
  const requests = services.get(RequestService);
  const inventories = services.get(InventoryService);
  return [
    implement(scmListWarehouses, (input, { ctx }) => warehouses.list(ctx.em, input)),
    implement(scmCreateWarehouse, (input, { ctx }) => warehouses.create(ctx.em, input)),
    implement(scmGetWarehouse, (input, { ctx }) => warehouses.get(ctx.em, input.id)),
    implement(scmSetWarehouseMinStock, (input, { ctx }) => warehouses.setMinStock(ctx.em, input.id, input)),
    implement(scmTmcBalances, (input, { ctx }) => warehouses.balances(ctx.em, input)),
    implement(scmListTmcItems, (input, { ctx }) => items.list(ctx.em, input)),
    implement(scmCreateTmcItem, (input, { ctx }) => items.create(ctx.em, input)),
    implement(scmGetTmcItem, (input, { ctx }) => items.get(ctx.em, input.id)),
    implement(scmUpdateTmcItem, (input, { ctx }) => items.update(ctx.em, input.id, input)),
    implement(scmDeactivateTmcItem, (input, { ctx }) => items.deactivate(ctx.em, input.id)),
    implement(scmRegisterTmcReceipt, (input, { ctx, caller }) => receipts.register(ctx.em, caller, input)),
    implement(scmWriteOffTmc, (input, { ctx, caller }) => writeOffs.writeOff(ctx.em, caller, input)),
    implement(scmListTmcTransfers, (input, { ctx }) => transfers.list(ctx.em, input)),
    implement(scmIssueTmcTransfer, (input, { ctx, caller }) => transfers.issue(ctx.em, caller, input)),
    implement(scmGetTmcTransfer, (input, { ctx }) => transfers.get(ctx.em, input.id)),
    implement(scmConfirmTmcTransfer, (input, { ctx, caller }) => transfers.confirm(ctx.em, caller, input.id, input.note)),
    implement(scmListTmcRequests, (input, { ctx }) => requests.list(ctx.em, input)),
    implement(scmCreateTmcRequest, (input, { ctx, caller }) => requests.create(ctx.em, caller, input)),
    implement(scmGetTmcRequest, (input, { ctx }) => requests.get(ctx.em, input.id)),
    implement(scmSubmitTmcRequest, (input, { ctx, caller }) => requests.move(ctx.em, caller, input.id, 'submit')),
    implement(scmApproveTmcRequest, (input, { ctx, caller }) => requests.move(ctx.em, caller, input.id, 'approve')),
    implement(scmRejectTmcRequest, (input, { ctx, caller }) => requests.move(ctx.em, caller, input.id, 'reject', input.reason)),
    implement(scmReturnTmcRequest, (input, { ctx, caller }) => requests.move(ctx.em, caller, input.id, 'return', input.comment)),
    implement(scmStartTmcRequest, (input, { ctx, caller }) => requests.move(ctx.em, caller, input.id, 'start')),
    implement(scmCloseTmcRequest, (input, { ctx }) => requests.close(ctx.em, input.id, input.linkedInboundIds)),
    implement(scmListTmcInventories, (input, { ctx }) => inventories.list(ctx.em, input)),
    implement(scmStartTmcInventory, (input, { ctx, caller }) => inventories.start(ctx.em, caller, input)),
    implement(scmGetTmcInventory, (input, { ctx }) => inventories.get(ctx.em, input.id)),
    implement(scmCompleteTmcInventory, (input, { ctx, caller }) => inventories.complete(ctx.em, caller, input.id, input.lines)),
  ];
}
