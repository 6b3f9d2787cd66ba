import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  scmConfirmTmcTransfer,
  scmIssueTmcTransfer,
  scmRegisterTmcReceipt,
  scmWriteOffTmc,
} from '../../../../contracts/operations/scm/tmc-movements.contract.js';
import { scmDeactivateTmcItem } from '../../../../contracts/operations/scm/tmc-items.contract.js';
import { ReceiptService } from '../../../../subgraphs/operations/scm/stock/receipt.service.js';
import { TmcItemService } from '../../../../subgraphs/operations/scm/stock/tmc-item.service.js';
import { TransferService } from '../../../../subgraphs/operations/scm/stock/transfer.service.js';
import { WriteOffService } from '../../../../subgraphs/operations/scm/stock/write-off.service.js';
import { OperationsServices, outcome } from '../../../support/operations-services.js';

/** Stock documents below HTTP: receipts raise the balance, write-offs and transfers never take it below zero. */

let ops: OperationsServices;
let keeperId: string;

const receive = (warehouseId: string, lines: Array<{ itemId: string; quantity: number; price: number }>) =>
  ops.run(
    'Supply',
    scmRegisterTmcReceipt,
    { warehouseId, source: 'return', inboundDate: '2026-01-01', documentNumber: 'ПН-1', receivedById: keeperId, lines },
    (input, em, caller) => ops.get(ReceiptService).register(em, caller, input),
  );
const writeOff = (warehouseId: string, lines: Array<{ itemId: string; quantity: number }>) =>
  ops.run(
    'Supply',
    scmWriteOffTmc,
    { warehouseId, targetObjectId: ops.north, reason: 'production', occurredAt: '2026-01-02T08:00:00Z', lines },
    (input, em, caller) => ops.get(WriteOffService).writeOff(em, caller, input),
  );
const transfer = (fromWarehouseId: string, toWarehouseId: string, lines: Array<{ itemId: string; quantity: number }>) =>
  ops.run(
    'Supply',
    scmIssueTmcTransfer,
    { fromWarehouseId, toWarehouseId, transferDate: '2026-01-03', documentNumber: 'ПР-1', lines },
    (input, em, caller) => ops.get(TransferService).issue(em, caller, input),
  );
const confirm = (id: string) =>
  ops.run('Supply', scmConfirmTmcTransfer, { id }, (input, em, caller) =>
    ops.get(TransferService).confirm(em, caller, input.id, input.note),
  );
/** The exact quantity on hand, as stored. */
async function onHand(warehouseId: string, itemId: string): Promise<string> {
  const [row] = await ops.orm.em
    .fork()
    .execute<Array<{ quantity: string }>>(
      'select quantity::text as quantity from operations.stock_balance where warehouse_id = ? and item_id = ?',
      [warehouseId, itemId],
    );
  return row?.quantity ?? 'none';
}

beforeAll(async () => {
  ops = await OperationsServices.start();
  keeperId = (await ops.employee({ position: 'FOREMAN' })).id;
}, 120_000);
afterAll(async () => {
  await ops?.stop();
});

describe('receipts', () => {
  it('raises the balance by each line exactly, summing two lines of one item', async () => {
    const [warehouse, item] = [await ops.warehouse(), await ops.item()];
    await receive(warehouse.id, [
      { itemId: item.id, quantity: 0.1, price: 10 },
      { itemId: item.id, quantity: 0.2, price: 10 },
    ]);
    expect(await onHand(warehouse.id, item.id)).toBe('0.300');
  });

  it('refuses a receipt of an item taken out of accounting (TMC_ITEM_INACTIVE)', async () => {
    const [warehouse, item] = [await ops.warehouse(), await ops.item()];
    await ops.run('Supply', scmDeactivateTmcItem, { id: item.id }, (input, em) => ops.get(TmcItemService).deactivate(em, input.id));
    expect(await outcome(receive(warehouse.id, [{ itemId: item.id, quantity: 1, price: 1 }]))).toBe('TMC_ITEM_INACTIVE');
    expect(await onHand(warehouse.id, item.id)).toBe('none');
  });
});

describe('write-offs', () => {
  it('never writes off below zero (TMC_INSUFFICIENT_STOCK) and refuses the whole act, not just the line', async () => {
    const [warehouse, grease, bits] = [await ops.warehouse(), await ops.item(), await ops.item('шт')];
    await receive(warehouse.id, [
      { itemId: grease.id, quantity: 10, price: 5 },
      { itemId: bits.id, quantity: 2, price: 50 },
    ]);
    const refused = writeOff(warehouse.id, [
      { itemId: grease.id, quantity: 4 },
      { itemId: bits.id, quantity: 2.001 },
    ]);
    expect(await outcome(refused)).toBe('TMC_INSUFFICIENT_STOCK');
    expect([await onHand(warehouse.id, grease.id), await onHand(warehouse.id, bits.id)]).toEqual(['10.000', '2.000']);
    await writeOff(warehouse.id, [{ itemId: bits.id, quantity: 2 }]);
    expect(await onHand(warehouse.id, bits.id)).toBe('0.000');
  });

  it('refuses a write-off from a warehouse that never held the item (TMC_INSUFFICIENT_STOCK)', async () => {
    const [warehouse, item] = [await ops.warehouse(), await ops.item()];
    expect(await outcome(writeOff(warehouse.id, [{ itemId: item.id, quantity: 0.001 }]))).toBe('TMC_INSUFFICIENT_STOCK');
  });
});

describe('transfers', () => {
  it('takes stock out of the source at issue and into the target only at confirmation', async () => {
    const [from, to, item] = [await ops.warehouse(), await ops.warehouse(ops.south), await ops.item()];
    await receive(from.id, [{ itemId: item.id, quantity: 7.5, price: 3 }]);
    const issued = await transfer(from.id, to.id, [{ itemId: item.id, quantity: 2.25 }]);
    expect(await onHand(from.id, item.id)).toBe('5.250');
    expect(['none', '0.000']).toContain(await onHand(to.id, item.id));
    await confirm(issued.id);
    expect(await onHand(to.id, item.id)).toBe('2.250');
  });

  it('never transfers more than the source holds (TMC_INSUFFICIENT_STOCK)', async () => {
    const [from, to, item] = [await ops.warehouse(), await ops.warehouse(), await ops.item()];
    await receive(from.id, [{ itemId: item.id, quantity: 1, price: 3 }]);
    expect(await outcome(transfer(from.id, to.id, [{ itemId: item.id, quantity: 1.001 }]))).toBe('TMC_INSUFFICIENT_STOCK');
    expect(await onHand(from.id, item.id)).toBe('1.000');
  });

  it('refuses a transfer into its own source warehouse (VALIDATION_FAILED)', async () => {
    const [warehouse, item] = [await ops.warehouse(), await ops.item()];
    await receive(warehouse.id, [{ itemId: item.id, quantity: 1, price: 3 }]);
    expect(await outcome(transfer(warehouse.id, warehouse.id, [{ itemId: item.id, quantity: 1 }]))).toBe('VALIDATION_FAILED');
  });

  it('confirms a transfer once; a second confirmation is a state conflict (STATE_CONFLICT)', async () => {
    const [from, to, item] = [await ops.warehouse(), await ops.warehouse(), await ops.item()];
    await receive(from.id, [{ itemId: item.id, quantity: 3, price: 3 }]);
    const issued = await transfer(from.id, to.id, [{ itemId: item.id, quantity: 3 }]);
    await confirm(issued.id);
    expect(await outcome(confirm(issued.id))).toBe('STATE_CONFLICT');
    expect(await onHand(to.id, item.id)).toBe('3.000');
  });
});
