import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { snakeCase } from '../../../contracts/input.js';
import type { ReferenceBook } from '../../../contracts/operations/reference-book.js';
import { kindOf, unwrap } from '../../../contracts/schema-shape.js';
import { recordMapper } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';

/**
 * Every reference book served by one generic service, driven by its declaration: the
 * table is the entity's name in snake_case and each field its column; the business key
 * decides what an import updates; versioned books keep their history.
 */

const q = (name: string) => `"${name}"`;

/** PostgreSQL type of a field's column, for reading import rows with `jsonb_to_recordset`. */
function sqlType(schema: z.ZodType): string {
  const { base } = unwrap(schema);
  const kind = kindOf(base);
  if (kind.kind === 'list') return 'text[]';
  if (kind.kind !== 'scalar') return 'text';
  const format = (base as unknown as { _zod: { def: { format?: string } } })._zod.def.format;
  if (format === 'datetime') return 'timestamptz';
  if (format === 'date') return 'date';
  return { id: 'uuid', string: 'text', int: 'integer', float: 'numeric', boolean: 'boolean' }[kind.scalar];
}

export interface BookTable {
  readonly book: ReferenceBook;
  readonly table: string;
  readonly columns: ReadonlyArray<{ field: string; column: string; type: string }>;
  readonly keyColumns: readonly string[];
  readonly map: (row: Record<string, unknown>) => Record<string, unknown>;
  /** The schema an import row must satisfy. */
  readonly row: z.ZodObject;
}

export function bookTable(book: ReferenceBook): BookTable {
  const table = `"operations".${q(snakeCase(book.entity))}`;
  return {
    book,
    table,
    columns: Object.entries(book.fields).map(([field, schema]) => ({ field, column: snakeCase(field), type: sqlType(schema) })),
    keyColumns: book.businessKey.map(snakeCase),
    map: recordMapper(book.record),
    row: z.object(book.fields),
  };
}

/** A book that counts versions increments a row's `version` with every change. */
const versionBump = (book: BookTable) => (book.book.countsVersions ? ['"version" = "version" + 1'] : []);

/** Whether a PostgreSQL error is a unique violation (a business key taken by an active row). */
export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export interface ListInput {
  readonly activeOnly: boolean;
  readonly assetClassCode?: string;
  readonly norm?: string;
  readonly asOf?: string;
  readonly includeHistory?: boolean;
}

export class ReferenceBookService {
  async list(em: EntityManager, book: BookTable, input: ListInput): Promise<Array<Record<string, unknown>>> {
    const where = [`"deleted_at" is null`];
    const params: unknown[] = [];
    if (input.activeOnly) where.push(`"active"`);
    if (book.book.versioned) {
      for (const [field, value] of [
        ['asset_class_code', input.assetClassCode],
        ['norm', input.norm],
      ] as const) {
        if (value === undefined) continue;
        where.push(`"${field}" = ?`);
        params.push(value);
      }
      if (!input.includeHistory || input.asOf) {
        where.push(`"valid_from" <= ?::timestamptz and ("valid_to" is null or "valid_to" > ?::timestamptz)`);
        params.push(input.asOf ?? new Date().toISOString(), input.asOf ?? new Date().toISOString());
      }
    }
    const order = book.keyColumns.map(q).join(', ');
    const rows = await em.execute<Array<Record<string, unknown>>>(
      `select * from ${book.table} where ${where.join(' and ')} order by ${order}, "id"`,
      params,
    );
    return rows.map(book.map);
  }

  async get(em: EntityManager, book: BookTable, id: string): Promise<Record<string, unknown>> {
    const [row] = await em.execute<Array<Record<string, unknown>>>(`select * from ${book.table} where "id" = ? and "deleted_at" is null`, [
      id,
    ]);
    if (!row) throw OperationsError.notFound(book.book.displayName);
    return book.map(row);
  }

  async update(em: EntityManager, book: BookTable, id: string, patch: Record<string, unknown>): Promise<Record<string, unknown>> {
    const sets = Object.entries(patch)
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => {
        const column = snakeCase(field);
        const type = book.columns.find((entry) => entry.column === column)?.type ?? (field === 'active' ? 'boolean' : 'text');
        return { sql: `${q(column)} = ?::${type}`, value: Array.isArray(value) ? `{${value.join(',')}}` : value };
      });
    try {
      const [row] = await em.execute<Array<Record<string, unknown>>>(
        `update ${book.table} set ${[...sets.map((set) => set.sql), `"updated_at" = now()`, ...versionBump(book)].join(', ')}
         where "id" = ? and "deleted_at" is null returning *`,
        [...sets.map((set) => set.value), id],
      );
      if (!row) throw OperationsError.notFound(book.book.displayName);
      return book.map(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw OperationsError.businessKeyTaken(book.book.displayName, book.book.businessKey.join(', '));
      throw error;
    }
  }

  async softDelete(em: EntityManager, book: BookTable, id: string): Promise<{ id: string; deletedAt: string }> {
    const [row] = await em.execute<Array<{ id: string; deleted_at: string }>>(
      `update ${book.table} set ${['"deleted_at" = now()', ...versionBump(book)].join(', ')} where "id" = ? and "deleted_at" is null returning "id", "deleted_at"`,
      [id],
    );
    if (!row) throw OperationsError.notFound(book.book.displayName);
    return { id: row.id, deletedAt: new Date(row.deleted_at).toISOString() };
  }
}
