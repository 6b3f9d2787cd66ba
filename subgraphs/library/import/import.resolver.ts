import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../shared/context.js';
import { AccountsError } from '../accounts/accounts.errors.js';
import { AdminTokenCheck } from '../accounts/admin-token.js';
import { LibraryError } from '../library-errors.js';
import { LibraryImportService } from './library-import.service.js';
import { IMPORT_FORMATS, importResult, LibraryImportResult } from './import.types.js';
import type { ImportFormat } from './sources.js';

@Resolver()
export class ImportResolver {
  static readonly inject = [AdminTokenCheck, LibraryImportService];

  constructor(
    private readonly adminToken: AdminTokenCheck,
    private readonly importer: LibraryImportService,
  ) {}

  @Mutation(() => LibraryImportResult, { description: 'Admin: imports one file (`POST /admin/import`); re-import replaces a book.' })
  async libraryImport(
    @Ctx() ctx: SubgraphContext,
    @Arg('format', () => String, { description: '`openiti` (mARkdown) or `jsonl` (JSON Lines pages).' }) format: string,
    @Arg('content', () => String) content: string,
    @Arg('bookId', () => String, { nullable: true, description: 'Store the book under this id.' }) bookId: string | null,
  ): Promise<LibraryImportResult> {
    if (!this.adminToken.matches(ctx.headers['x-admin-token'])) throw AccountsError.adminUnauthorized();
    if (!IMPORT_FORMATS.includes(format as ImportFormat)) {
      throw LibraryError.unknownImportFormat(IMPORT_FORMATS);
    }
    const books = await this.importer.importText(ctx.em, format as ImportFormat, content, bookId?.trim() ? { bookId: bookId.trim() } : {});
    if (books.length === 0) throw LibraryError.invalidImport('the file holds no book', null, null);
    return importResult(books);
  }
}
