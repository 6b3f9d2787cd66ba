import { z } from 'zod';
import { ops } from '../fields.js';
import { decimals } from './decimals.js';

/** Lines of stock documents as requests send them. */

/** Most lines one document carries. */
export const MAX_LINES = 500;

export const TmcLineInput = z.object({ itemId: ops.ref('scm.tmc-item'), quantity: decimals.quantity() }).meta({ id: 'TmcLineInput' });

export const TmcReceiptLineInput = z
  .object({ itemId: ops.ref('scm.tmc-item'), quantity: decimals.quantity(), price: decimals.price() })
  .meta({ id: 'TmcReceiptLineInput' });

export const TmcInventoryCountInput = z
  .object({
    lineId: ops.ref('scm.tmc-inventory-line').describe('A line of the inventory’s snapshot.'),
    actualQuantity: decimals.count(),
    note: ops.text(1, 500).nullable().optional().describe('Why the count differs, or null.'),
  })
  .meta({ id: 'TmcInventoryCountInput' });

export const lines = <T extends z.ZodType>(line: T) => z.array(line).min(1).max(MAX_LINES);

export const documentNumber = () => ops.text(1, 100);
export const documentReference = () =>
  ops.text(1, 200).nullable().optional().describe('A reference to the paper or scanned document, or null.');
