import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../runtime/logger.js';
import { LibraryError } from '../library-errors.js';
import type { SearchEngine } from '../search/search-engine.js';
import { BookWriter } from './book-writer.js';
import { ImportFormatError } from './import-errors.js';
import type { LibraryEvent } from './library-events.js';
import { eventsOf, linesOf, type ImportFormat, type SourceOptions } from './sources.js';

export interface ImportedBook {
  readonly bookId: string;
  readonly title: string;
  readonly parts: number;
  readonly pages: number;
}

export interface ImportProgress {
  /** Called after each committed book. */
  readonly onBook?: (book: ImportedBook) => void;
}

/**
 * Stores books from any import source: one transaction per book (a failure rolls that book back
 * and names the line), re-import replaces the book, and the search engine is told after each commit.
 */
export class LibraryImportService {
  constructor(
    private readonly engine: SearchEngine,
    private readonly logger: Logger,
  ) {}

  /** Imports an in-memory body (the admin HTTP path); the CLI streams files through `importEvents`. */
  importText(em: EntityManager, format: ImportFormat, body: string, options: SourceOptions = {}): Promise<ImportedBook[]> {
    return this.importEvents(em, eventsOf(format, linesOf(body), options));
  }

  async importEvents(em: EntityManager, events: AsyncIterable<LibraryEvent>, progress: ImportProgress = {}): Promise<ImportedBook[]> {
    const done: ImportedBook[] = [];
    const iterator = events[Symbol.asyncIterator]();
    try {
      let next = await iterator.next();
      while (!next.done) {
        const event = next.value;
        if (event.type !== 'book') throw new ImportFormatError(event.line ?? 1, 'a page or part comes before its book');
        const result = await this.importBook(em, event, iterator);
        done.push(result.book);
        progress.onBook?.(result.book);
        next = result.next;
      }
    } catch (error) {
      throw this.explain(error, done);
    }
    return done;
  }

  /** Writes one book in its own transaction and returns the event that follows it. */
  private async importBook(
    em: EntityManager,
    first: Extract<LibraryEvent, { type: 'book' }>,
    events: AsyncIterator<LibraryEvent>,
  ): Promise<{ book: ImportedBook; next: IteratorResult<LibraryEvent> }> {
    const tx = em.fork();
    await tx.begin();
    let next: IteratorResult<LibraryEvent>;
    let writer: BookWriter;
    try {
      writer = await BookWriter.open(tx, first.book);
      for (next = await events.next(); !next.done && next.value.type !== 'book'; next = await events.next()) {
        if (next.value.type === 'part') await writer.addPart(next.value.part);
        else await writer.addPage(next.value.page);
      }
      await writer.finish();
      await tx.commit();
    } catch (error) {
      await tx.rollback().catch(() => undefined);
      throw error;
    }
    const book = { bookId: first.book.id, title: first.book.title, parts: writer.partCount, pages: writer.pageCount };
    this.logger.info(book, 'library book imported');
    try {
      await this.engine.indexBook(book.bookId, em);
    } catch (error) {
      this.logger.error({ err: error, bookId: book.bookId }, 'book stored but not indexed; run npm run reindex');
      throw LibraryError.searchUnavailable(this.engine.kind, error);
    }
    return { book, next };
  }

  private explain(error: unknown, done: readonly ImportedBook[]): unknown {
    if (!(error instanceof ImportFormatError)) return error;
    const kept = done.length > 0 ? ` (books before it were imported: ${done.map((book) => book.bookId).join(', ')})` : '';
    return LibraryError.invalidImport(`${error.message}${kept}`, error.line > 0 ? error.line : null, error.field);
  }
}
