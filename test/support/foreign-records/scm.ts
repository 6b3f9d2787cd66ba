import { createForeign, importOne } from './core.js';
import type { ForeignRecords } from './types.js';

/** A supplier with a contact and a bank account, a warehouse, an item, a transfer, a request and an inventory. */
export const scmForeignRecords: ForeignRecords = async (context) => {
  /** A record created as the other organization's Admin: its id. */
  const create = async (path: string, body: unknown): Promise<string> => {
    const created = await createForeign(context, path, body);
    return (created.id ?? created.inboundId) as string;
  };
  const supplier = await create('/api/v1/scm/suppliers', { bin: '971240001315', legalName: 'Other Supplier' });
  const contact = await create(`/api/v1/scm/suppliers/${supplier}/contacts`, { fullName: 'Other Contact' });
  const bank = await create(`/api/v1/scm/suppliers/${supplier}/bank-accounts`, {
    bankName: 'Other Bank',
    iban: 'KZ86125KZT5004100100',
  });
  const objectId = await importOne(context, '/api/v1/core/production-objects', 'scm-object');
  const warehouse = await create('/api/v1/scm/warehouses', { objectId, code: 'OTHER-1', name: 'Other store' });
  const target = await create('/api/v1/scm/warehouses', { objectId, code: 'OTHER-2', name: 'Other store 2' });
  const item = await create('/api/v1/scm/tmc/items', {
    nomenclatureCode: 'OTHER',
    name: 'Other item',
    category: 'spare',
    unit: 'шт',
  });
  const line = { itemId: item, quantity: 5 };
  const positionId = await importOne(context, '/api/v1/hr/positions', 'scm-position');
  const receiver = await create('/api/v1/hr/personnel', {
    fullName: 'Other Storekeeper',
    tabNumber: 'OTHER-SCM-1',
    positionId,
    objectId,
    hiredAt: '2020-01-01',
  });
  await create('/api/v1/scm/tmc/receipts', {
    warehouseId: warehouse,
    source: 'return',
    inboundDate: '2026-11-01',
    documentNumber: 'R-1',
    receivedById: receiver,
    lines: [{ ...line, price: 10 }],
  });
  const transfer = await create('/api/v1/scm/tmc/transfers', {
    fromWarehouseId: warehouse,
    toWarehouseId: target,
    transferDate: '2026-11-02',
    documentNumber: 'T-1',
    lines: [{ itemId: item, quantity: 1 }],
  });
  const request = await create('/api/v1/scm/tmc/requests', {
    warehouseId: warehouse,
    justification: 'Needed',
    lines: [line],
  });
  const inventory = await create('/api/v1/scm/tmc/inventories', { warehouseId: warehouse, inventoryDate: '2026-11-03' });
  return {
    '/api/v1/scm/suppliers': supplier,
    contactId: contact,
    bankId: bank,
    '/api/v1/scm/warehouses': warehouse,
    '/api/v1/scm/tmc/items': item,
    '/api/v1/scm/tmc/transfers': transfer,
    '/api/v1/scm/tmc/requests': request,
    '/api/v1/scm/tmc/inventories': inventory,
  };
};
