import { z } from 'zod';
import { members, type OperationsRole } from '../access.js';
import { defineOperation, type OperationContract } from '../operation.js';
import { OperationsErrorCode } from './errors.js';
import { ops } from './fields.js';

/**
 * A reference book declared once: its record, the fields an import row carries, its
 * business key, what may be updated and by whom. Every book gets the same operations
 * from this declaration (list, card, partial update, delete to the trash, import
 * preview and commit), and one generic service serves them all.
 */

const EVERY_ROLE: readonly OperationsRole[] = ['CEO', 'Engineer', 'Foreman', 'Mechanic', 'OtibSpecialist', 'Supply', 'Admin'];

export type Module = 'core' | 'hr' | 'eam';

export interface ReferenceBookDeclaration {
  readonly module: Module;
  /** Kebab-case plural, the path segment and the trash entity slug. */
  readonly slug: string;
  /** PascalCase singular: the data-model name (audit, trash) and GraphQL names. */
  readonly entity: string;
  readonly plural: string;
  readonly displayName: string;
  /** Fields of a row beyond `id`, `active` and the timestamps; an import row carries them. */
  readonly fields: Readonly<Record<string, z.ZodType>>;
  readonly businessKey: readonly string[];
  /** Fields a partial update may change (`null`: the book is read-only). */
  readonly updatable: readonly string[] | null;
  readonly updateRoles: readonly OperationsRole[];
  /** Roles that may import (`null`: no import for this book). */
  readonly importRoles: readonly OperationsRole[] | null;
  /** Rows belong to a production object (object-scoped roles see only theirs); `id` for the objects themselves. */
  readonly objectColumn?: string;
  /** Every update and delete of a row increments its `version` (readers cache by it). */
  readonly countsVersions?: boolean;
  /** Versions in time: a newer `validFrom` for the same key closes the previous version. */
  readonly versioned?: { readonly key: readonly string[] };
  /** Extra list filters. */
  readonly listQuery?: Readonly<Record<string, z.ZodType>>;
}

export interface ReferenceBook extends ReferenceBookDeclaration {
  readonly record: z.ZodObject;
  readonly readPath: string;
  readonly contracts: readonly OperationContract[];
}

const IMPORT_ROWS_MAX = 10_000;

export const ImportPreview = z
  .object({
    batchId: z.uuid(),
    module: z.string(),
    entity: z.string(),
    mode: z.enum(['merge', 'full_replace']),
    totalRows: z.int(),
    diff: z.object({
      created: z.int(),
      updated: z.int(),
      unchanged: z.int(),
      deactivated: z.int(),
      errors: z.array(z.object({ row: z.int().describe('0-based index in `rows`.'), field: z.string().nullable(), message: z.string() })),
    }),
    expiresAt: z.string(),
  })
  .meta({ id: 'ImportPreview', description: 'What a commit would change; nothing is written by a preview.' });

const Deleted = z
  .object({ id: z.uuid(), deletedAt: z.string().describe('ISO 8601.') })
  .meta({ id: 'Deleted', description: 'A record moved to the trash.' });

export const ImportCommitted = z
  .object({ batchId: z.uuid(), status: z.literal('committed'), applied: z.int(), eventId: z.uuid() })
  .meta({ id: 'ImportCommitted' });

const withoutDefault = (schema: z.ZodType): z.ZodType => (schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema);

function contractsOf(book: ReferenceBookDeclaration, record: z.ZodObject, readPath: string): OperationContract[] {
  const base = { service: 'operations' as const, tags: [`${book.module}: reference books`] };
  const readers = members(EVERY_ROLE, { objectScope: Boolean(book.objectColumn) });
  const notFound = [OperationsErrorCode.RECORD_NOT_FOUND];
  const contracts: OperationContract[] = [
    defineOperation({
      ...base,
      name: `list${book.plural}`,
      kind: 'query',
      summary: `${book.displayName}: list`,
      description: '`activeOnly=true` drops inactive, deleted and expired rows.',
      access: readers,
      input: { query: { activeOnly: z.boolean().default(false), ...book.listQuery } },
      output: z.array(record),
      rest: { method: 'GET', path: readPath },
    }),
    defineOperation({
      ...base,
      name: `get${book.entity}`,
      kind: 'query',
      summary: `${book.displayName}: card`,
      access: readers,
      input: { path: { id: ops.id() } },
      output: record,
      rest: { method: 'GET', path: `${readPath}/:id` },
      errors: notFound,
    }),
  ];
  if (book.updatable) {
    // A partial update changes only the fields sent: a field's default applies to a new row, never to an update.
    const shape = Object.fromEntries(book.updatable.map((field) => [field, withoutDefault(book.fields[field]!).optional()]));
    contracts.push(
      defineOperation({
        ...base,
        name: `update${book.entity}`,
        kind: 'mutation',
        summary: `${book.displayName}: partial update`,
        access: members(book.updateRoles, { objectScope: Boolean(book.objectColumn) }),
        input: { path: { id: ops.id() }, body: { ...shape, active: z.boolean().optional() } },
        output: record,
        rest: { method: 'PATCH', path: `${readPath}/:id` },
        errors: [...notFound, OperationsErrorCode.BUSINESS_KEY_TAKEN],
      }),
      defineOperation({
        ...base,
        name: `delete${book.entity}`,
        kind: 'mutation',
        summary: `${book.displayName}: move to the trash`,
        description: 'Soft delete: the row keeps its data and can be restored from `/api/v1/core/trash`.',
        access: members(book.updateRoles, { objectScope: Boolean(book.objectColumn) }),
        input: { path: { id: ops.id() } },
        output: Deleted,
        rest: { method: 'DELETE', path: `${readPath}/:id` },
        errors: notFound,
      }),
    );
  }
  if (book.importRoles) contracts.push(...importContracts(book, readPath, base));
  return contracts;
}

function importContracts(book: ReferenceBookDeclaration, readPath: string, base: { service: 'operations'; tags: string[] }) {
  const access = members(book.importRoles!, { objectScope: false });
  const errors = [
    OperationsErrorCode.IMPORT_BATCH_NOT_FOUND,
    OperationsErrorCode.IMPORT_BATCH_EXPIRED,
    OperationsErrorCode.IMPORT_BATCH_COMMITTED,
    OperationsErrorCode.IMPORT_BATCH_INVALID,
  ];
  const commit = (name: string, path: string, input: Parameters<typeof defineOperation>[0]['input']) =>
    defineOperation({
      ...base,
      name,
      kind: 'mutation',
      summary: `${book.displayName}: commit an import`,
      description: 'Applies a previewed batch in one transaction and publishes one event.',
      access,
      idempotency: 'required',
      input,
      output: ImportCommitted,
      rest: { method: 'POST', path },
      errors,
    });
  return [
    defineOperation({
      ...base,
      name: `preview${book.plural}Import`,
      kind: 'mutation',
      summary: `${book.displayName}: preview an import`,
      description: `\`merge\` upserts by the business key (${book.businessKey.join(', ')}); \`full_replace\` also deactivates rows that are absent. Nothing is written; the preview expires after an hour.`,
      access,
      input: {
        body: {
          rows: z.array(z.record(z.string(), z.unknown())).min(1).max(IMPORT_ROWS_MAX),
          mode: z.enum(['merge', 'full_replace']).default('merge'),
        },
      },
      output: ImportPreview,
      rest: { method: 'POST', path: `${readPath}/import/preview` },
    }),
    commit(`commit${book.plural}Import`, `${readPath}/import/commit`, { body: { batchId: ops.ref('core.import-batch', z.uuid()) } }),
    commit(`commit${book.plural}ImportByPath`, `${readPath}/import/:batchId/commit`, { path: { batchId: z.uuid() } }),
  ];
}

export function defineReferenceBook(book: ReferenceBookDeclaration): ReferenceBook {
  const record = z
    .object({
      id: z.uuid(),
      ...book.fields,
      active: z.boolean(),
      createdAt: z.string().describe('ISO 8601.'),
      updatedAt: z.string().describe('ISO 8601.'),
    })
    .meta({ id: book.entity, description: `A row of the ${book.displayName} reference book.` });
  const readPath = `/api/v1/${book.module}/${book.slug}`;
  return { ...book, record, readPath, contracts: contractsOf(book, record, readPath) };
}
