import { z } from 'zod';
import { references } from '../references.js';
import type { OperationsReferenceKind } from './references.js';

/** Field schemas of the operations API, named by what they hold. */

const codePoints = (value: string) => [...value].length;

export const ops = {
  id: () => z.uuid().describe('A UUID.'),
  /** The id of a record of the caller's organization, of the kind named. */
  ref: (kind: OperationsReferenceKind, id: z.ZodUUID = ops.id()) => references(id, { kind }),
  /** The id of a record whose kind is the value of the sibling field `field` (e.g. `entityType`). */
  refBy: (field: string) => references(ops.id(), { kindFrom: field }),
  /** A text of `min`…`max` characters (code points), trimmed. */
  text: (min: number, max: number) =>
    z
      .string()
      .trim()
      .refine((value) => codePoints(value) >= min && codePoints(value) <= max, {
        error: min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`,
      })
      .meta({ minLength: min, maxLength: max }),
  /** `YYYY-MM-DD`. */
  date: () => z.iso.date(),
  /** ISO 8601 date-time with an offset. */
  dateTime: () => z.iso.datetime({ offset: true }),
  flag: () => z.boolean(),
};

/** A cursor list's page of `items`. */
export const cursorPaging = (max: number, fallback: number) => ({ kind: 'cursor', limit: { min: 1, max, default: fallback } }) as const;

/** Cursor paging whose `limit` the caller must send (the seed marks it required). */
export const requiredCursorPaging = (max: number) => ({ kind: 'cursor', limit: { min: 1, max } }) as const;

/** Timestamps every record carries. */
export const timestamps = {
  createdAt: z.string().describe('ISO 8601.'),
  updatedAt: z.string().describe('ISO 8601.'),
};
