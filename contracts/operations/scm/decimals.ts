import { z } from 'zod';

/**
 * Quantities and money travel as JSON numbers but are stored and computed as PostgreSQL
 * `numeric`: a number is accepted only with as many decimal places as its column keeps,
 * so nothing is rounded on the way in, and its shortest text form is exact.
 */

/** Decimal places of a number as JSON writes it (`1e-7` has 7). */
export function decimalPlaces(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

const scaled = (schema: z.ZodNumber, places: number, what: string) =>
  schema.refine((value) => decimalPlaces(value) <= places, { error: `must have at most ${places} decimal places` }).describe(what);

/** Largest quantity accepted (`numeric(20,3)` keeps more; the bound keeps products of quantity and price exact). */
const MAX_QUANTITY = 1_000_000_000;
const MAX_PRICE = 1_000_000_000_000;

export const decimals = {
  /** A quantity moved: above 0, up to 3 decimal places. */
  quantity: () => scaled(z.number().positive().max(MAX_QUANTITY), 3, 'Quantity in the item’s unit, above 0, up to 3 decimal places.'),
  /** A counted or minimum quantity: at least 0, up to 3 decimal places. */
  count: () => scaled(z.number().min(0).max(MAX_QUANTITY), 3, 'Quantity in the item’s unit, at least 0, up to 3 decimal places.'),
  /** A unit price: at least 0, up to 2 decimal places. */
  price: () => scaled(z.number().min(0).max(MAX_PRICE), 2, 'Unit price, at least 0, up to 2 decimal places.'),
};
