import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { libraryImport, libraryImportFile } from '../../../contracts/library/import.contract.js';
import { implement, implementStream, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { LibraryError } from '../library-errors.js';
import { LibraryImportService, type ImportedBook } from './library-import.service.js';
import { eventsOf } from './sources.js';

/** The result of an import: its first book's id and the totals of all books it stored. */
function importResult(books: readonly ImportedBook[]) {
  if (books.length === 0) throw LibraryError.invalidImport('the file holds no book', null, null);
  return {
    bookId: books[0]!.bookId,
    parts: books.reduce((sum, book) => sum + book.parts, 0),
    pages: books.reduce((sum, book) => sum + book.pages, 0),
    books: books.map((book) => ({ ...book })),
  };
}

/**
 * Imports: an uploaded file read as its lines arrive (one result event), so memory
 * does not depend on the file's size, or a file's text through GraphQL.
 */
export function importOperations(services: Services): Implementation[] {
  const importer = services.get(LibraryImportService);
  return [
    implementStream(libraryImportFile, async function* (input, { ctx }, _signal, body) {
      if (!body) throw LibraryError.invalidImport('the request holds no file', null, null);
      const lines = createInterface({ input: Readable.from(body), crlfDelay: Infinity });
      yield importResult(await importer.importEvents(ctx.em, eventsOf(input.format, lines, input.bookId ? { bookId: input.bookId } : {})));
    }),
    implement(libraryImport, async (input, { ctx }) =>
      importResult(await importer.importText(ctx.em, input.format, input.content, input.bookId ? { bookId: input.bookId } : {})),
    ),
  ];
}
