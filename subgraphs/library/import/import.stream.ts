import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { defineStream } from '../../shared/streams.js';
import { AccountsError } from '../accounts/accounts.errors.js';
import { AdminTokenCheck } from '../accounts/admin-token.js';
import { LibraryError } from '../library-errors.js';
import { importResult, IMPORT_FORMATS } from './import.types.js';
import { LibraryImportService } from './library-import.service.js';
import { eventsOf, type ImportFormat } from './sources.js';

/** Input of the upload: the variables `POST /admin/import` sends. */
interface ImportUploadInput {
  readonly format?: string;
  readonly bookId?: string | null;
}

/**
 * `libraryImportFile`: imports one uploaded file as its lines arrive (one transaction
 * per book), so memory does not depend on the file's size; its one event is the result.
 */
export const importStreams = {
  libraryImportFile: defineStream(
    [AdminTokenCheck, LibraryImportService] as const,
    (adminToken, importer) =>
      async function* (input, ctx, _signal, body) {
        if (!adminToken.matches(ctx.headers['x-admin-token'])) throw AccountsError.adminUnauthorized();
        const { format, bookId } = (input ?? {}) as ImportUploadInput;
        if (!IMPORT_FORMATS.includes(format as ImportFormat)) {
          throw LibraryError.unknownImportFormat(IMPORT_FORMATS);
        }
        if (!body) throw LibraryError.invalidImport('the request holds no file', null, null);
        const lines = createInterface({ input: Readable.from(body), crlfDelay: Infinity });
        const books = await importer.importEvents(
          ctx.em,
          eventsOf(format as ImportFormat, lines, bookId?.trim() ? { bookId: bookId.trim() } : {}),
        );
        if (books.length === 0) throw LibraryError.invalidImport('the file holds no book', null, null);
        yield importResult(books);
      },
  ),
};
