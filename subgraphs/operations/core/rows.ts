import type { z } from 'zod';
import { snakeCase } from '../../../contracts/input.js';
import { kindOf, unwrap } from '../../../contracts/schema-shape.js';

/** A `timestamptz` as the driver returns it (text, e.g. `2026-11-23 11:42:35.898155+00`), or a Date. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}(:?\d{2})?|Z)$/;

/** A database time as ISO 8601 (other values as they are). */
export function iso(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' && TIMESTAMP.test(value) ? new Date(value).toISOString() : value;
}

/**
 * Database rows or entities as records of a contract's schema: each field read from its snake_case
 * column (a row) or its camelCase property (an entity), times as ISO 8601, `numeric` columns (text
 * from the driver, exact decimal strings in entities) as numbers.
 */
export function recordMapper<T>(schema: z.ZodObject): (row: object) => T {
  const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([field, fieldSchema]) => {
    const kind = kindOf(unwrap(fieldSchema).base);
    const numeric = kind.kind === 'scalar' && (kind.scalar === 'float' || kind.scalar === 'int');
    return { field, column: snakeCase(field), numeric };
  });
  return (source) => {
    const row = source as Record<string, unknown>;
    const record: Record<string, unknown> = {};
    for (const { field, column, numeric } of fields) {
      const value = column in row ? row[column] : row[field];
      record[field] = numeric && typeof value === 'string' ? Number(value) : iso(value);
    }
    return record as T;
  };
}

/** A row of any table as camelCase JSON (the trash lists rows of many tables). */
export function camelRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
      iso(value),
    ]),
  );
}
