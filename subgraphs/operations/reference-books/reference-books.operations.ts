import { coreReferenceBooks, REFERENCE_BOOKS, systemRoles } from '../../../contracts/operations/reference-books.contract.js';
import type { OperationContract } from '../../../contracts/operation.js';
import { implement, type Handler, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import type { Principal } from '../core/principal.js';
import { PERMISSION_NAMES } from '../core/system-roles.js';
import { OperationsError } from '../operations.errors.js';
import type { TrashEntity } from '../core/trash.service.js';
import { ReferenceBookImportService } from './reference-book-import.service.js';
import { bookTable, ReferenceBookService, type BookTable, type ListInput } from './reference-book.service.js';

export const BOOK_TABLES: readonly BookTable[] = REFERENCE_BOOKS.map(bookTable);

/** Every book's rows can go to the trash. */
export const referenceBookTrash: TrashEntity[] = BOOK_TABLES.map((book) => ({
  slug: book.book.slug,
  entity: book.book.entity,
  table: book.table,
  countsVersions: book.book.countsVersions ?? false,
}));

/** A system role's permissions name operations gated by roles (a typo would silently grant nothing). */
function checkPermissions(permissions: unknown): void {
  if (!Array.isArray(permissions)) return;
  const unknown = permissions.filter((name) => !PERMISSION_NAMES.has(name as string));
  if (unknown.length > 0) throw OperationsError.invalid('permissions', `not operations gated by roles: ${unknown.slice(0, 20).join(', ')}`);
}

type AnyInput = Record<string, unknown> & {
  id: string;
  batchId: string;
  rows: Array<Record<string, unknown>>;
  mode: 'merge' | 'full_replace';
};

/** Each book's operations, served by the generic services with the book's table. */
export function referenceBookOperations(services: Services): Implementation[] {
  const books = services.get(ReferenceBookService);
  const imports = services.get(ReferenceBookImportService);
  const handlers = (book: BookTable): Record<string, Handler<OperationContract>> => {
    const { entity, plural } = book.book;
    return {
      [`list${plural}`]: (input, { ctx }) => books.list(ctx.em, book, input as unknown as ListInput),
      [`get${entity}`]: (input, { ctx }) => books.get(ctx.em, book, (input as AnyInput).id),
      [`update${entity}`]: (input, { ctx }) => {
        const { id, ...patch } = input as AnyInput;
        if (book.book === systemRoles) checkPermissions(patch.permissions);
        return books.update(ctx.em, book, id, patch);
      },
      [`delete${entity}`]: (input, { ctx }) => books.softDelete(ctx.em, book, (input as AnyInput).id),
      [`preview${plural}Import`]: (input, { ctx, caller }) =>
        imports.preview(ctx.em, caller as Principal, book, (input as AnyInput).rows, (input as AnyInput).mode),
      [`commit${plural}Import`]: (input, { ctx, caller }) => imports.commit(ctx.em, caller as Principal, book, (input as AnyInput).batchId),
      [`commit${plural}ImportByPath`]: (input, { ctx, caller }) =>
        imports.commit(ctx.em, caller as Principal, book, (input as AnyInput).batchId),
    };
  };
  return [
    implement(coreReferenceBooks, () =>
      BOOK_TABLES.map(({ book }) => ({
        module: book.module,
        entity: book.slug,
        displayName: book.displayName,
        ownerModule: book.module,
        readPath: book.readPath,
      })),
    ),
    ...BOOK_TABLES.flatMap((book) => {
      const byName = handlers(book);
      return book.book.contracts.map((contract) => implement(contract, byName[contract.name]!));
    }),
  ];
}
