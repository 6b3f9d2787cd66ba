import { z } from 'zod';
import { timestamps } from '../fields.js';

/** Warehouses, TMC items, balances and stock documents as the API returns them (seed 002, Resources). */

export const TMC_CATEGORIES = ['drill_tool', 'spare', 'consumable', 'other'] as const;
export const TMC_UNITS = ['шт', 'кг', 'л', 'м', 'компл'] as const;

export const TmcCategory = z.enum(TMC_CATEGORIES).meta({ id: 'TmcItemCategory' });
export const TmcUnit = z.enum(TMC_UNITS).meta({ id: 'TmcUnit', description: 'Unit of measure: шт, кг, л, м or компл.' });

const amount = (what: string) => z.number().describe(what);
const at = () => z.string().nullable().describe('ISO 8601, or null.');

export const Warehouse = z
  .object({
    id: z.uuid(),
    objectId: z.uuid().describe('The production object the warehouse belongs to.'),
    code: z.string(),
    name: z.string(),
    active: z.boolean(),
    ...timestamps,
  })
  .meta({ id: 'Warehouse' });

export const TmcItem = z
  .object({
    id: z.uuid(),
    nomenclatureCode: z.string(),
    name: z.string(),
    category: TmcCategory,
    unit: TmcUnit,
    assetClassId: z.uuid().nullable(),
    lastPurchasePrice: amount('Price of the latest receipt line, or the initial price.').nullable(),
    weightedAvgPrice: amount('Moving weighted average over every receipt, 4 decimal places.').nullable(),
    active: z.boolean().describe('False once taken out of accounting.'),
    ...timestamps,
  })
  .meta({ id: 'TmcItem' });

export const StockBalance = z
  .object({
    id: z.uuid(),
    warehouseId: z.uuid(),
    objectId: z.uuid(),
    itemId: z.uuid(),
    quantity: amount('On hand, never below 0.'),
    minQuantity: amount('The minimum for this item in this warehouse, or null.').nullable(),
    lowStock: z.boolean().describe('Whether `quantity` is below `minQuantity`.'),
    updatedAt: z.string(),
  })
  .meta({ id: 'StockBalance' });

export const TmcReceiptResult = z
  .object({
    inboundId: z.uuid(),
    warehouseId: z.uuid(),
    totalAmount: amount('Sum of quantity × price, 2 decimal places.'),
    lineCount: z.int(),
  })
  .meta({ id: 'TmcReceiptResult' });

export const TmcWriteOffResult = z
  .object({ consumptionId: z.uuid(), warehouseId: z.uuid(), lineCount: z.int() })
  .meta({ id: 'TmcWriteOffResult' });

const TmcDocumentLine = z.object({ id: z.uuid(), itemId: z.uuid(), quantity: amount('Quantity.') });

export const TmcTransfer = z
  .object({
    id: z.uuid(),
    fromWarehouseId: z.uuid(),
    toWarehouseId: z.uuid(),
    status: z.enum(['issued', 'confirmed']).meta({ id: 'TmcTransferStatus' }),
    transferDate: z.string().describe('YYYY-MM-DD.'),
    documentNumber: z.string(),
    issuedById: z.uuid(),
    confirmedById: z.uuid().nullable(),
    issuedAt: z.string(),
    confirmedAt: at(),
    note: z.string().nullable(),
    lines: z.array(TmcDocumentLine.meta({ id: 'TmcTransferLine' })),
  })
  .meta({ id: 'TmcTransfer' });

export const TMC_REQUEST_STATUSES = ['draft', 'sent', 'approved', 'rejected', 'in_progress', 'fulfilled'] as const;
export const TmcRequestStatus = z.enum(TMC_REQUEST_STATUSES).meta({ id: 'TmcRequestStatus' });

export const TmcRequest = z
  .object({
    id: z.uuid(),
    warehouseId: z.uuid(),
    createdById: z.uuid(),
    justification: z.string(),
    status: TmcRequestStatus,
    submittedAt: at(),
    approvedById: z.uuid().nullable(),
    approvedAt: at(),
    rejectReason: z.string().nullable(),
    returnComment: z.string().nullable().describe('The latest comment of a return for rework.'),
    startedAt: at(),
    fulfilledAt: at(),
    linkedInboundIds: z.array(z.uuid()),
    ...timestamps,
    lines: z.array(TmcDocumentLine.meta({ id: 'TmcRequestLine' })),
  })
  .meta({ id: 'TmcRequest' });

export const TmcInventoryStatus = z.enum(['in_progress', 'completed']).meta({ id: 'TmcInventoryStatus' });

export const TmcInventoryLine = z
  .object({
    id: z.uuid(),
    itemId: z.uuid(),
    expectedQuantity: amount('The balance when the inventory started.'),
    actualQuantity: amount('Counted at completion.').nullable(),
    variance: amount('Actual minus expected.').nullable(),
    note: z.string().nullable(),
    adjustmentMovementId: z.uuid().nullable().describe('The `inventory_adjustment` movement of a nonzero variance.'),
  })
  .meta({ id: 'TmcInventoryLine' });

export const TmcInventory = z
  .object({
    id: z.uuid(),
    warehouseId: z.uuid(),
    inventoryDate: z.string().describe('YYYY-MM-DD.'),
    responsibleId: z.uuid(),
    status: TmcInventoryStatus,
    completedAt: at(),
    documentReference: z.string().nullable(),
    lines: z.array(TmcInventoryLine),
  })
  .meta({ id: 'TmcInventory' });
