import { z } from 'zod';

/**
 * Field schemas worded as the library's `/v1` errors word problems (`details[].message`):
 * "is required", "must be an integer from 1 to 20". Lengths count characters (code
 * points), not UTF-16 units.
 */

const INT32_MAX = 2_147_483_647;

const typed = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`);

const codePoints = (value: string) => [...value].length;

export const lib = {
  string: () => z.string({ error: typed('a string') }),
  number: () => z.number({ error: typed('a number') }),
  boolean: () => z.boolean({ error: typed('true or false') }),
  int32: () =>
    z
      .int({ error: typed(`an integer of at most ${INT32_MAX}`) })
      .min(-INT32_MAX - 1, { error: `must be an integer of at most ${INT32_MAX}` })
      .max(INT32_MAX, { error: `must be an integer of at most ${INT32_MAX}` }),

  /** A required text of `min`…`max` characters, trimmed; blank is missing. */
  text: (min: number, max: number) =>
    z
      .string({ error: typed('a string') })
      .refine((value) => value.trim() !== '', { error: 'is required', abort: true })
      .refine((value) => codePoints(value.trim()) >= min && codePoints(value) <= max, {
        error: `must be ${min} to ${max} characters long`,
      })
      .meta({ minLength: min, maxLength: max }),

  /** An integer beyond 32 bits is as far as 32 bits reach (then capped by its service); anything else non-integer is absent. */
  saturatingInt: () =>
    z
      .preprocess(
        (value) => (Number.isSafeInteger(value) ? Math.max(-INT32_MAX - 1, Math.min(INT32_MAX, value as number)) : value),
        z.int32(),
      )
      .optional()
      .catch(undefined),

  /** A required, non-blank string. */
  required: () => z.string({ error: typed('a string') }).refine((value) => value.trim() !== '', { error: 'is required' }),

  /** An integer within bounds; a value that is not an integer says so, one out of range names the range. */
  boundedInt: (min: number, max: number) =>
    z
      .int({ error: typed('an integer') })
      .min(min, { error: `must be an integer from ${min} to ${max}` })
      .max(max, { error: `must be an integer from ${min} to ${max}` }),

  /** `0` or `1` on the wire, a boolean in GraphQL. */
  zeroOrOne: () => z.boolean({ error: 'must be 0 or 1' }),

  /** A flag where anything but `1`/`true` means off. */
  lenientFlag: () => z.boolean().catch(false),

  /** An optional filter text: blank means absent. */
  filter: () => z.string().optional(),
};
