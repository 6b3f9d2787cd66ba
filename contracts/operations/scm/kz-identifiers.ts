import { z } from 'zod';

/**
 * Kazakhstan's business identifiers: BIN (legal entities) and IIN (individuals) are
 * 12 digits whose last is a check digit; a Kazakh IBAN is `KZ` plus 18 letters or
 * digits with the ISO 13616 mod-97 check; currencies are ISO 4217 codes.
 */

const FIRST_WEIGHTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const SECOND_WEIGHTS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2];

/** Whether a BIN or IIN has 12 digits and the right check digit (a second pass when the first sum mod 11 is 10). */
export function isValidBinIin(value: string): boolean {
  if (!/^\d{12}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const control = (weights: readonly number[]) => weights.reduce((sum, weight, index) => sum + weight * digits[index]!, 0) % 11;
  let check = control(FIRST_WEIGHTS);
  if (check === 10) check = control(SECOND_WEIGHTS);
  return check !== 10 && check === digits[11];
}

/** ISO 13616: the first four characters moved to the end, letters as 10–35, the number mod 97 is 1. */
export function isValidIbanChecksum(value: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(value)) return false;
  let remainder = 0;
  for (const char of `${value.slice(4)}${value.slice(0, 4)}`) {
    const digits = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

export const kz = {
  /** A BIN or IIN. */
  taxId: (what: 'BIN' | 'IIN') =>
    z
      .string()
      .regex(/^\d{12}$/, { error: 'must be 12 digits', abort: true })
      .refine(isValidBinIin, { error: `is not a valid ${what}: the check digit does not match` })
      .meta({ description: `${what}: 12 digits, the last a check digit.`, examples: ['971240001315'] }),
  iban: () =>
    z
      .string()
      .regex(/^KZ[A-Z0-9]{18}$/, { error: 'must match ^KZ[A-Z0-9]{18}$', abort: true })
      .refine(isValidIbanChecksum, { error: 'fails the IBAN mod-97 checksum' })
      .meta({ description: 'Kazakh IBAN (`^KZ[A-Z0-9]{18}$`, ISO 13616 mod-97 checksum).', examples: ['KZ86125KZT5004100100'] }),
  currency: () =>
    z
      .string()
      .regex(/^[A-Z]{3}$/, { error: 'must be a 3-letter ISO 4217 code', abort: true })
      .refine((code) => CURRENCIES.has(code), { error: 'is not an ISO 4217 currency' })
      .meta({ description: 'ISO 4217 currency code.', examples: ['KZT'] }),
};
