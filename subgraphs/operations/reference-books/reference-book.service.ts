import { type EntitySchema, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { snakeCase } from '../../../contracts/input.js';
import type { ReferenceBook } from '../../../contracts/operations/reference-book.js';
import { kindOf, unwrap } from '../../../contracts/schema-shape.js';
import { recordMapper } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';
import { referenceBookEntity } from './reference-book.entity.js';

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
  /** The book's rows as records: from database rows, and from entities. */
  readonly map: (row: Record<string, unknown>) => Record<string, unknown>;
  readonly entity: EntitySchema;
  readonly fromEntity: (entity: Record<string, unknown>) => Record<string, unknown>;
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
    entity: referenceBookEntity(book.entity),
    fromEntity: recordMapper(book.record),
    row: z.object(book.fields),
  };
}

/** A book that counts versions increments a row's `version` with every change (the row is locked while it changes). */
const versionBump = (book: BookTable, row: { version?: number }) => (book.book.countsVersions ? { version: (row.version ?? 0) + 1 } : {});

/** Whether a PostgreSQL error is a unique violation (a business key taken by an active row). */
export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export interface ListInput {
  readonly activeOnly: boolean;
  readonly assetClassCode?: string;
  readonly norm?: string;
  readonly asOf?: string;
  readonly includeHistory?: boolean;
}

type BookEntity = Record<string, unknown> & { id: string; version?: number };

export class ReferenceBookService {
  async list(em: EntityManager, book: BookTable, input: ListInput): Promise<Array<Record<string, unknown>>> {
    const where: Record<string, unknown> = { deletedAt: null };
    if (input.activeOnly) where.active = true;
    if (book.book.versioned) {
      if (input.assetClassCode !== undefined) where.assetClassCode = input.assetClassCode;
      if (input.norm !== undefined) where.norm = input.norm;
      if (!input.includeHistory || input.asOf) {
        const at = input.asOf ? new Date(input.asOf) : new Date();
        where.validFrom = { $lte: at };
        where.$or = [{ validTo: null }, { validTo: { $gt: at } }];
      }
    }
    const orderBy = Object.fromEntries([...book.book.businessKey.map((field) => [field, 'asc']), ['id', 'asc']]);
    const rows = await em.find<BookEntity>(book.entity, where, { orderBy });
    return rows.map(book.fromEntity);
  }

  /** A row not in the trash; locked for the rest of the transaction when it is about to change. */
  private async row(em: EntityManager, book: BookTable, id: string, lock = false): Promise<BookEntity> {
    const row = await em.findOne<BookEntity>(book.entity, { id, deletedAt: null }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
    if (!row) throw OperationsError.notFound(book.book.displayName);
    return row;
  }

  async get(em: EntityManager, book: BookTable, id: string): Promise<Record<string, unknown>> {
    return book.fromEntity(await this.row(em, book, id));
  }

  async update(em: EntityManager, book: BookTable, id: string, patch: Record<string, unknown>): Promise<Record<string, unknown>> {
    const row = await this.row(em, book, id, true);
    const times = new Set(book.columns.filter((entry) => entry.type === 'timestamptz').map((entry) => entry.field));
    const changes = Object.entries(patch)
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => [field, times.has(field) && typeof value === 'string' ? new Date(value) : value]);
    em.assign(row, { ...Object.fromEntries(changes), updatedAt: new Date(), ...versionBump(book, row) });
    try {
      await em.flush();
    } catch (error) {
      if (isUniqueViolation(error)) throw OperationsError.businessKeyTaken(book.book.displayName, book.book.businessKey.join(', '));
      throw error;
    }
    return book.fromEntity(row);
  }

  async softDelete(em: EntityManager, book: BookTable, id: string): Promise<{ id: string; deletedAt: string }> {
    const row = await this.row(em, book, id, true);
    const deletedAt = new Date();
    em.assign(row, { deletedAt, ...versionBump(book, row) });
    await em.flush();
    return { id: row.id, deletedAt: deletedAt.toISOString() };
  }
}
