import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../runtime/logger.js';
import { withAfterCommit } from '../../shared/after-commit.js';
import { deriveBookStatistics } from '../import/book-writer.js';
import { LibraryError } from '../library-errors.js';
import { indexTerms } from './index-terms.js';
import { nativeQuery, valueRows } from '../../shared/native-query.js';
import { rewriteSegments, writeSegment } from './postings.js';
import type { SearchEngine } from './search-engine.js';

const BATCH = 500;

export interface ReindexedBook {
  readonly bookId: string;
  readonly pages: number;
}

/**
 * Rebuilds the search index from the pages of record: re-analyses every page (after a change to
 * the analysis, terms must be recomputed), re-derives document frequencies, then hands each book
 * to the engine. One transaction per book, so searches keep working while it runs; the posting
 * segments are then rewritten whole, a few large ones (`postings.ts`).
 */
export class LibraryReindexService {
  constructor(
    private readonly engine: SearchEngine,
    private readonly logger: Logger,
  ) {}

  async reindexAll(em: EntityManager, onBook?: (book: ReindexedBook, total: number) => void): Promise<ReindexedBook[]> {
    // raw SQL: search engine, pages re-analysed in bulk under the book's advisory lock.
    const books = await em.execute<Array<{ id: string }>>('select id from library.book order by id');
    const done: ReindexedBook[] = [];
    for (const { id } of books) {
      const book = await this.reindexBook(em, id, false);
      done.push(book);
      onBook?.(book, books.length);
    }
    await withAfterCommit(em.fork(), this.logger, (tx) => rewriteSegments(tx));
    return done;
  }

  /** Re-analyses one book; its postings go into a segment of their own unless the caller rewrites them all. */
  async reindexBook(em: EntityManager, bookId: string, withPostings = true): Promise<ReindexedBook> {
    // One transaction per book, on a fork, so searches keep working while the others wait.
    const pages = await withAfterCommit(em.fork(), this.logger, async (tx) => {
      let pages = 0;
      // raw SQL: search engine, pages re-analysed in bulk under the book's advisory lock.
      await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`qantara:library:book:${bookId}`]);
      let after = 0;
      for (;;) {
        // raw SQL: search engine, pages re-analysed in bulk under the book's advisory lock.
        const rows = await tx.execute<Array<{ id: string; page: number; text: string }>>(
          'select id, page, text from library.page where book_id = ? and page > ? order by page limit ?',
          [bookId, after, BATCH],
        );
        if (rows.length === 0) break;
        const values = rows.flatMap((row) => {
          const indexed = indexTerms(row.text);
          return [row.id, indexed.tsvector, indexed.termCount];
        });
        // raw SQL: search engine, pages re-analysed in bulk under the book's advisory lock (term vectors sent binary).
        await nativeQuery(
          tx,
          `update library.page p set terms = v.terms, term_count = v.term_count
           from (values ${valueRows(rows.length, ['', '::tsvector', '::int'])}) as v(id, terms, term_count) where p.id = v.id`,
          values,
        );
        pages += rows.length;
        after = rows.at(-1)!.page;
      }
      await deriveBookStatistics(tx, bookId);
      if (withPostings) await writeSegment(tx, [bookId]);
      return pages;
    });
    try {
      await this.engine.indexBook(bookId, em);
    } catch (error) {
      this.logger.error({ err: error, bookId }, 'book not indexed');
      throw LibraryError.searchUnavailable(this.engine.kind, error);
    }
    return { bookId, pages };
  }
}
