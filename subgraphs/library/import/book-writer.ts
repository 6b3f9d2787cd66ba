import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeArabic } from '../analysis/arabic.js';
import { textArray } from '../search/index-terms.js';
import { SegmentBuilder } from '../search/segment-builder.js';
import { nativeQuery, valueRows } from '../../shared/native-query.js';
import type { BookRecord, PageRecord, PartRecord } from './library-events.js';
import type { AnalysedPage } from './page-analysis.js';
import type { PageAnalyzer } from './page-analyzer.js';

const PAGE_BATCH = 200;
const PART_BATCH = 500;
/** Batches of pages between read and stored at once: one analysed, one waiting, one being inserted. */
const BATCHES_IN_FLIGHT = 3;

/** Normalized form of a title, author names or a filter value, so `القران` finds `القرآن`. */
export function filterKey(value: string): string {
  return normalizeArabic(value).toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Parameter casts of a part row and of a page row, column by column. */
const PART_COLUMNS = ['', '', '::int', '::int', '', '::int', '::int'];
const PAGE_COLUMNS = ['', '', '::int', '', '::int', '', '::int', '', '', '', '::int', '::tsvector', '::int'];

/**
 * Writes one book inside the caller's transaction: replaces any earlier version of it, inserts
 * parts and pages in batches as they stream in (only a few batches are held in memory), records
 * each page's postings in the import's segment, and writes the book's document frequencies and totals.
 */
export class BookWriter {
  private parts: PartRecord[] = [];
  private pages: PageRecord[] = [];
  partCount = 0;
  pageCount = 0;
  /** The book's length, counted as its pages go by. */
  private termTotal = 0;
  /** Settles once the last batch sent is in the segment: batches are recorded in the order they came. */
  private recorded: Promise<unknown> = Promise.resolve();
  /** Inserts sent and not yet known to have succeeded, oldest first. */
  private inFlight: Array<Promise<unknown>> = [];

  private constructor(
    private readonly em: EntityManager,
    readonly book: BookRecord,
    private readonly segment: { builder: SegmentBuilder; ref: number },
    private readonly analyzer: PageAnalyzer,
  ) {}

  /** The book's own statements (lock, old version cleared, book row), set once by `open`: its parts and pages are sent after them. */
  private opened: Promise<unknown> = Promise.resolve();

  /**
   * Starts a book: its postings go to the import's segment from here on, so the previous book's
   * pages must all be recorded (`BookWriter.finish` tells when). Its statements — the book id locked
   * for this transaction (two imports of one book queue up), the old version cleared, the book row
   * — are sent without waiting, so the connection may still be writing the previous book meanwhile.
   */
  static open(em: EntityManager, book: BookRecord, segment: SegmentBuilder, analyzer: PageAnalyzer): BookWriter {
    const writer = new BookWriter(em, book, { builder: segment, ref: segment.book(book.id) }, analyzer);
    writer.opened = BookWriter.replace(em, book);
    writer.opened.catch(() => undefined); // surfaces through the first batch, or in `finish`
    writer.inFlight.push(writer.opened);
    return writer;
  }

  private static async replace(em: EntityManager, book: BookRecord): Promise<void> {
    // raw SQL: a transaction-scoped advisory lock, so two imports of one book queue.
    await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`qantara:library:book:${book.id}`]);
    // raw SQL: bulk import, the earlier version goes with its parts, pages and statistics (cascade).
    await em.execute('delete from library.book where id = ?', [book.id]);
    // raw SQL: bulk import, authors as an exact array literal, filter keys written beside the book.
    await em.execute(
      `insert into library.book (id, title, authors, category, source_format, source_uri, source_meta, volumes, title_key, authors_key)
       values (?, ?, ?::text[], ?, ?, ?, ?::jsonb, ?, ?, ?)`,
      [
        book.id,
        book.title,
        textArray(book.authors),
        book.category,
        book.sourceFormat,
        book.sourceUri,
        JSON.stringify(book.sourceMeta),
        book.volumes,
        filterKey(book.title),
        book.authors.map(filterKey).join('\n'),
      ],
    );
  }

  /**
   * Settles once nothing of this book is left to be sent. After a failure the caller waits for it
   * before the transaction rolls back: a statement sent after the rollback would run on its own.
   */
  async settled(): Promise<void> {
    await Promise.allSettled([this.opened, this.recorded, ...this.inFlight]);
  }

  async addPart(part: PartRecord): Promise<void> {
    this.parts.push(part);
    this.partCount += 1;
    if (this.parts.length >= PART_BATCH) await this.flushParts();
  }

  async addPage(page: PageRecord): Promise<void> {
    this.pages.push(page);
    this.pageCount += 1;
    if (this.pages.length >= PAGE_BATCH) await this.flushPages();
  }

  /**
   * Flushes what is buffered and writes the book's statistics; the caller commits. `recorded`
   * settles once every page of the book is in the segment (the next book may start), `written`
   * once everything of the book is sent and done.
   */
  finish(): { recorded: Promise<unknown>; written: Promise<void> } {
    const last = this.flushPages();
    const recorded = this.recorded;
    const written = (async () => {
      await last;
      await this.flushParts();
      for (const insert of this.inFlight.splice(0)) await insert;
      await SegmentBuilder.writeTermStats(this.em, this.book.id, this.segment.builder.documentFrequencies(this.segment.ref));
      // raw SQL: bulk import, the counts gathered while writing.
      await this.em.execute('update library.book set part_count = ?, page_count = ?, term_total = ? where id = ?', [
        this.partCount,
        this.pageCount,
        this.termTotal,
        this.book.id,
      ]);
    })();
    for (const step of [recorded, written]) step.catch(() => undefined); // awaited by the caller
    return { recorded, written };
  }

  private async flushParts(): Promise<void> {
    if (this.parts.length === 0) return;
    await this.opened;
    const params = this.parts.flatMap((part) => [
      `${this.book.id}:${part.index}`,
      this.book.id,
      part.index,
      part.depth,
      part.title,
      part.parentIndex,
      part.page,
    ]);
    // raw SQL: bulk import, a batch of parts in one statement.
    await nativeQuery(
      this.em,
      `insert into library.part (id, book_id, index, depth, title, parent_index, page) values ${valueRows(this.parts.length, PART_COLUMNS)}`,
      params,
    );
    this.parts = [];
  }

  /**
   * Sends a batch of pages to be analysed and returns once few enough batches are in flight: the
   * analysis (in a worker when there is one), the segment and the insert of a batch overlap with the
   * reading of the next. A failure surfaces at the next wait for its batch, at the latest in `finish`.
   */
  private async flushPages(): Promise<void> {
    if (this.pages.length === 0) return;
    const pages = this.pages;
    this.pages = [];
    const analysed = this.analyzer.analyse(pages.map((page) => page.text));
    const previous = this.recorded;
    const recorded = (async () => {
      const results = await analysed;
      await previous;
      return this.record(pages, results);
    })();
    this.recorded = recorded;
    // raw SQL: bulk import, a batch of pages in one statement, parameters (term vectors included) sent binary.
    const insert = Promise.all([recorded, this.opened]).then(([params]) =>
      nativeQuery(
        this.em,
        `insert into library.page (id, book_id, page, volume, volume_page, label, part_index, part, text, markup, chars, terms, term_count)
         values ${valueRows(pages.length, PAGE_COLUMNS)}`,
        params,
      ),
    );
    for (const step of [analysed, recorded, insert]) step.catch(() => undefined);
    this.inFlight.push(insert);
    if (this.inFlight.length >= BATCHES_IN_FLIGHT) await this.inFlight.shift();
  }

  /** Records a batch's postings in the segment (in page order) and gives its insert's parameters. */
  private record(pages: readonly PageRecord[], results: readonly AnalysedPage[]): unknown[] {
    const { builder, ref } = this.segment;
    return pages.flatMap((page, i) => {
      const analysed = results[i]!;
      builder.page(ref, page.page, analysed.terms, analysed.tfs, analysed.termCount);
      this.termTotal += analysed.termCount;
      return [
        `${this.book.id}-${page.page}`,
        this.book.id,
        page.page,
        page.volume,
        page.volumePage,
        page.label,
        page.partIndex,
        page.part,
        page.text,
        page.markup,
        page.text.length,
        analysed.tsvector,
        analysed.termCount,
      ];
    });
  }
}

/** Document frequencies, counts and total length of a book, derived from its stored pages. */
export async function deriveBookStatistics(em: EntityManager, bookId: string): Promise<void> {
  // raw SQL: bulk work, statistics derived from the stored pages, set-wise, in the three statements below.
  await em.execute('delete from library.term_stat where book_id = ?', [bookId]);
  await em.execute(
    `insert into library.term_stat (term, book_id, df)
     select u.lexeme, ?, count(*) from library.page p cross join lateral unnest(p.terms) u where p.book_id = ? group by u.lexeme`,
    [bookId, bookId],
  );
  // raw SQL: bulk work, the book's counts from its stored parts and pages.
  await em.execute(
    `update library.book b set part_count = (select count(*) from library.part where book_id = b.id),
       page_count = s.pages, term_total = s.terms
     from (select count(*) as pages, coalesce(sum(term_count), 0) as terms from library.page where book_id = ?) s
     where b.id = ?`,
    [bookId, bookId],
  );
}
