import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { snakeCase } from '../../../contracts/input.js';
import { unwrap } from '../../../contracts/schema-shape.js';
import type { Principal } from '../core/principal.js';
import { publishEvent } from '../core/events.js';
import { OperationsError } from '../operations.errors.js';
import { ImportBatchEntity } from './import-batch.entity.js';
import type { BookTable } from './reference-book.service.js';

/**
 * Bulk import of a reference book in two steps: a preview validates every row and
 * computes what a commit would change (nothing of the book is written; the batch is
 * kept an hour), and a commit applies the batch in one transaction: upserts by business
 * key, closes superseded versions, and in `full_replace` deactivates absent rows.
 */

const BATCH_LIFETIME_MINUTES = 60;

type Row = Record<string, unknown>;

export interface ImportDiff {
  created: number;
  updated: number;
  unchanged: number;
  deactivated: number;
  errors: Array<{ row: number; field: string | null; message: string }>;
}

const isDateTime = (schema: z.ZodType) =>
  (unwrap(schema).base as unknown as { _zod: { def: { format?: string } } })._zod.def.format === 'datetime';

/** Rows validated and normalised (times as UTC ISO strings), with per-row problems. */
function validate(book: BookTable, rows: readonly Row[], errors: ImportDiff['errors']): Array<{ index: number; row: Row }> {
  const dateFields = Object.entries(book.book.fields)
    .filter(([, schema]) => isDateTime(schema))
    .map(([field]) => field);
  const valid: Array<{ index: number; row: Row }> = [];
  rows.forEach((raw, index) => {
    const parsed = book.row.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors.push({ row: index, field: issue.path.join('.') || null, message: issue.message });
      return;
    }
    const row = { ...(parsed.data as Row) };
    for (const field of dateFields) if (typeof row[field] === 'string') row[field] = new Date(row[field] as string).toISOString();
    valid.push({ index, row });
  });
  return valid;
}

const keyOf = (book: BookTable, row: Row) => JSON.stringify(book.book.businessKey.map((field) => row[field]));

const sameContent = (book: BookTable, row: Row, existing: Row) =>
  existing.active === true &&
  Object.keys(book.book.fields).every((field) => JSON.stringify(row[field]) === JSON.stringify(existing[field]));

export class ReferenceBookImportService {
  async preview(em: EntityManager, principal: Principal, book: BookTable, rows: readonly Row[], mode: 'merge' | 'full_replace') {
    const diff: ImportDiff = { created: 0, updated: 0, unchanged: 0, deactivated: 0, errors: [] };
    const valid = validate(book, rows, diff.errors);
    const existing = new Map(
      (await em.find<Row>(book.entity, { deletedAt: null })).map((entity) => {
        const record = book.fromEntity(entity);
        return [keyOf(book, record), record] as const;
      }),
    );
    const seen = new Set<string>();
    for (const { index, row } of valid) {
      const key = keyOf(book, row);
      if (seen.has(key)) {
        diff.errors.push({ row: index, field: book.book.businessKey.join(','), message: 'the business key repeats an earlier row' });
        continue;
      }
      seen.add(key);
      const current = existing.get(key);
      if (!current) diff.created += 1;
      else if (sameContent(book, row, current)) diff.unchanged += 1;
      else diff.updated += 1;
    }
    if (mode === 'full_replace') {
      diff.deactivated = [...existing].filter(([key, record]) => record.active === true && !seen.has(key)).length;
    }
    const batch = em.create(ImportBatchEntity, {
      organizationId: principal.organizationId!,
      book: book.book.slug,
      mode,
      rows: valid.map((entry) => entry.row),
      diff: { ...diff },
      totalRows: rows.length,
      createdBy: principal.userId,
      expiresAt: new Date(Date.now() + BATCH_LIFETIME_MINUTES * 60_000),
    });
    await em.flush();
    return {
      batchId: batch.id,
      module: book.book.module,
      entity: book.book.entity,
      mode,
      totalRows: rows.length,
      diff,
      expiresAt: batch.expiresAt.toISOString(),
    };
  }

  async commit(em: EntityManager, principal: Principal, book: BookTable, batchId: string) {
    // Locked: of two concurrent commits of one batch, the second sees it committed.
    const batch = await em.findOne(ImportBatchEntity, { id: batchId, book: book.book.slug }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!batch) throw OperationsError.importBatchNotFound();
    if (batch.committedAt) throw OperationsError.importBatchCommitted();
    if (batch.expiresAt <= new Date()) throw OperationsError.importBatchExpired();
    const diff = batch.diff as unknown as ImportDiff;
    if (diff.errors.length > 0) throw OperationsError.importBatchInvalid(diff.errors.length);
    const recordset = JSON.stringify(
      (batch.rows as Row[]).map((row) => Object.fromEntries(book.columns.map((c) => [c.column, row[c.field] ?? null]))),
    );
    if (book.book.versioned) await this.closeSupersededVersions(em, book, recordset);
    const applied =
      (await this.upsert(em, principal, book, recordset)) +
      (batch.mode === 'full_replace' ? await this.deactivateAbsent(em, book, recordset) : 0);
    const eventId = await publishEvent(em, {
      type: 'core.reference-book.imported',
      organizationId: principal.organizationId,
      payload: { batchId, book: book.book.slug, mode: batch.mode, applied },
    });
    em.assign(batch, { committedAt: new Date(), applied, eventId });
    await em.flush();
    return { batchId, status: 'committed' as const, applied, eventId };
  }

  private recordsetType(book: BookTable): string {
    return book.columns.map((c) => `"${c.column}" ${c.type}`).join(', ');
  }

  /** Rows whose content changed or that were inactive are written; identical ones are left alone. */
  private async upsert(em: EntityManager, principal: Principal, book: BookTable, recordset: string): Promise<number> {
    const columns = book.columns.map((c) => `"${c.column}"`);
    const keys = book.keyColumns.map((column) => `"${column}"`).join(', ');
    // raw SQL: bulk upsert of the whole batch in one statement, unchanged rows left alone.
    const [row] = await em.execute<Array<{ applied: number }>>(
      `with written as (
         insert into ${book.table} as t ("organization_id", ${columns.join(', ')})
         select ?::uuid, ${columns.map((column) => `r.${column}`).join(', ')} from jsonb_to_recordset(?::jsonb) as r(${this.recordsetType(book)})
         on conflict ("organization_id", ${keys}) where "deleted_at" is null do update
         set ${[...columns.map((column) => `${column} = excluded.${column}`), `"active" = true`, `"updated_at" = now()`].join(', ')}
         where (${columns.map((column) => `t.${column}`).join(', ')}, t."active") is distinct from (${columns.map((column) => `excluded.${column}`).join(', ')}, true)
         returning 1)
       select count(*)::int as "applied" from written`,
      [principal.organizationId, recordset],
    );
    return row!.applied;
  }

  private async deactivateAbsent(em: EntityManager, book: BookTable, recordset: string): Promise<number> {
    const keys = book.keyColumns.map((column) => `"${column}"`).join(', ');
    // raw SQL: bulk update of every row the batch does not name.
    const [row] = await em.execute<Array<{ deactivated: number }>>(
      `with changed as (
         update ${book.table} set "active" = false, "updated_at" = now()
         where "deleted_at" is null and "active" and (${keys}) not in (
           select ${book.keyColumns.map((column) => `r."${column}"`).join(', ')} from jsonb_to_recordset(?::jsonb) as r(${this.recordsetType(book)}))
         returning 1)
       select count(*)::int as "deactivated" from changed`,
      [recordset],
    );
    return row!.deactivated;
  }

  /** A new version of a versioned row ends the open version it follows. */
  private async closeSupersededVersions(em: EntityManager, book: BookTable, recordset: string): Promise<void> {
    const key = book.book.versioned!.key.map((field) => `"${snakeCase(field)}"`);
    // raw SQL: bulk update joined with the batch's rows.
    await em.execute(
      `update ${book.table} t set "valid_to" = r."valid_from", "updated_at" = now()
       from jsonb_to_recordset(?::jsonb) as r(${this.recordsetType(book)})
       where ${key.map((column) => `t.${column} = r.${column}`).join(' and ')}
         and t."valid_to" is null and t."valid_from" < r."valid_from" and t."deleted_at" is null`,
      [recordset],
    );
  }
}
