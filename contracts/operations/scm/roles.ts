import type { OperationsRole } from '../../access.js';

/**
 * Who may call the supply operations where the seed names no role (docs/adr/0012).
 * Foreman and Mechanic are object-scoped: they see the stock of their production objects.
 */

/** Read suppliers: the people who buy and those who approve spending. */
export const SUPPLIER_READERS: readonly OperationsRole[] = ['Supply', 'Admin', 'CEO', 'Engineer'];
/** Keep supplier cards, contacts and bank details. */
export const SUPPLIER_KEEPERS: readonly OperationsRole[] = ['Supply', 'Admin'];
/** Activate a submitted supplier: someone above the buyer who prepared the card. */
export const SUPPLIER_ACTIVATORS: readonly OperationsRole[] = ['Admin', 'CEO'];
/** Suspend, unblock and archive suppliers. */
export const SUPPLIER_STEWARDS: readonly OperationsRole[] = ['Supply', 'Admin', 'CEO'];
/** Roles a second approver of an archive must hold. */
export const ARCHIVE_CO_APPROVERS: readonly OperationsRole[] = ['Admin', 'CEO'];

/** Read warehouses, items, balances and stock documents. */
export const STOCK_READERS: readonly OperationsRole[] = ['Supply', 'Admin', 'CEO', 'Engineer', 'Foreman', 'Mechanic'];
/** Keep warehouses, items, receipts, transfers and inventories. */
export const STOCK_KEEPERS: readonly OperationsRole[] = ['Supply', 'Admin'];
/** Write stock off by a manual act: storekeepers, and those who use materials on repairs. */
export const STOCK_WRITERS_OFF: readonly OperationsRole[] = ['Supply', 'Admin', 'Engineer', 'Mechanic'];
/** Draft and send TMC requests: whoever needs materials. */
export const REQUESTERS: readonly OperationsRole[] = ['Foreman', 'Mechanic', 'Engineer', 'Supply', 'Admin'];
/** Approve, reject or return a sent request (the seed: Engineer or Admin). */
export const REQUEST_APPROVERS: readonly OperationsRole[] = ['Engineer', 'Admin'];
/** Take an approved request into work and close it with receipts. */
export const REQUEST_FULFILLERS: readonly OperationsRole[] = ['Supply', 'Admin'];
