import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../runtime/logger.js';
import { withAfterCommit } from '../../shared/after-commit.js';
import { LibraryError } from '../library-errors.js';
import { SegmentBuilder } from '../search/segment-builder.js';
import type { SearchEngine } from '../search/search-engine.js';
import { BookWriter } from './book-writer.js';
import { ImportFormatError } from './import-errors.js';
import type { LibraryEvent } from './library-events.js';
import { openPageAnalyzer, type PageAnalyzer } from './page-analyzer.js';
import { eventsOf, linesOf, type ImportFormat, type SourceOptions } from './sources.js';

export interface ImportedBook {
  readonly bookId: string;
  readonly title: string;
  readonly parts: number;
  readonly pages: number;
}

export interface ImportProgress {
  /** Called after each book is written; nothing is visible to readers before the whole import commits. */
  readonly onBook?: (book: ImportedBook) => void;
}

/**
 * Stores books from any import source in one transaction: an import is all or nothing whatever
 * the number of books (a failure rolls every book back and names the line), re-import replaces a
 * book, and the search engine is told about each book once the import has committed.
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
    const iterator = events[Symbol.asyncIterator]();
    // The first event is asked for before anything is awaited: a readline source drops lines it reads before then.
    const first = iterator.next();
    first.catch(() => undefined); // awaited below, after the transaction has begun
    const analyzer = openPageAnalyzer();
    let done: ImportedBook[];
    try {
      // Its own transaction on a fork, committed before the engine is told about any book.
      done = await withAfterCommit(em.fork(), this.logger, async (tx) => {
        const segment = new SegmentBuilder();
        const written = await this.writeBooks(tx, iterator, await first, progress, segment, analyzer);
        await segment.write(tx);
        return written;
      });
    } catch (error) {
      throw explain(error);
    } finally {
      await analyzer.close();
    }
    for (const book of done) await this.index(book, em);
    return done;
  }

  /**
   * Writes every book of the source inside the caller's transaction. A book's last statements (its
   * statistics) run while the next book is read and analysed; one book finishes at a time, and a
   * book met again in the source waits for its earlier version to be written before replacing it.
   */
  private async writeBooks(
    tx: EntityManager,
    iterator: AsyncIterator<LibraryEvent>,
    first: IteratorResult<LibraryEvent>,
    progress: ImportProgress,
    segment: SegmentBuilder,
    analyzer: PageAnalyzer,
  ): Promise<ImportedBook[]> {
    const done: ImportedBook[] = [];
    let finishing: { bookId: string; recorded: Promise<unknown>; written: Promise<void> } | null = null;
    let writer: BookWriter | null = null;
    let next = first;
    try {
      while (!next.done) {
        const event = next.value;
        if (event.type !== 'book') throw new ImportFormatError(event.line ?? 1, 'a page or part comes before its book');
        // The segment takes a book's postings after the previous book's.
        if (finishing) await (finishing.bookId === event.book.id ? finishing.written : finishing.recorded);
        writer = BookWriter.open(tx, event.book, segment, analyzer);
        for (next = await iterator.next(); !next.done && next.value.type !== 'book'; next = await iterator.next()) {
          if (next.value.type === 'part') await writer.addPart(next.value.part);
          else await writer.addPage(next.value.page);
        }
        if (finishing) await finishing.written;
        const book = { bookId: event.book.id, title: event.book.title, parts: writer.partCount, pages: writer.pageCount };
        const { recorded, written } = writer.finish();
        finishing = {
          bookId: book.bookId,
          recorded,
          written: written.then(() => {
            done.push(book);
            progress.onBook?.(book);
          }),
        };
        finishing.written.catch(() => undefined); // awaited before the next book finishes, or below
      }
      if (finishing) await finishing.written;
    } catch (error) {
      // Nothing may still be on its way to the database when the transaction rolls back.
      await Promise.allSettled([writer?.settled(), finishing?.written]);
      throw error;
    }
    return done;
  }

  private async index(book: ImportedBook, em: EntityManager): Promise<void> {
    this.logger.info(book, 'library book imported');
    try {
      await this.engine.indexBook(book.bookId, em);
    } catch (error) {
      this.logger.error({ err: error, bookId: book.bookId }, 'book stored but not indexed; run npm run reindex');
      throw LibraryError.searchUnavailable(this.engine.kind, error);
    }
  }
}

function explain(error: unknown): unknown {
  if (!(error instanceof ImportFormatError)) return error;
  return LibraryError.invalidImport(error.message, error.line > 0 ? error.line : null, error.field);
}
