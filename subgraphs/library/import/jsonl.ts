/**
 * Streaming parser for library pages in JSON Lines, one page per line:
 * `{"book_id","book","authors","category","part","page","text","html"?}`.
 *
 * This is the format `eval/qqa/eval_retrieval.py jsonl` writes (book "qpc", page n = n-th passage,
 * so page ids are "qpc-<n>"). Lines of one book must be consecutive; the book is announced once,
 * before its first page. Blank lines are skipped but still counted for line numbers.
 */
import { unstorableText } from '../../../contracts/input.js';
import { ImportFormatError } from './import-errors.js';

export interface JsonlBook {
  bookId: string;
  title: string;
  authors: string;
  category: string;
  /** Line of the book's first page. */
  line: number;
}

export interface JsonlPage {
  /** Page identifier `<book_id>-<page>`, as the API and the evaluation qrels use it. */
  id: string;
  bookId: string;
  page: number;
  part: string;
  text: string;
  html: string | null;
  line: number;
}

export type JsonlEvent = { type: 'book'; book: JsonlBook } | { type: 'page'; page: JsonlPage };

/** One validated line, before grouping. */
export interface JsonlRecord {
  bookId: string;
  title: string;
  authors: string;
  category: string;
  part: string;
  page: number;
  text: string;
  html: string | null;
}

// Page ids `<book_id>-<page>` travel in URLs, so book ids stay URL-safe.
const BOOK_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;

function stringField(record: Record<string, unknown>, field: string, line: number, nonEmpty = false): string {
  const value = record[field];
  if (value === undefined || value === null) throw new ImportFormatError(line, 'is required', field);
  if (typeof value !== 'string') throw new ImportFormatError(line, `must be a string, got ${typeOf(value)}`, field);
  if (nonEmpty && value.trim() === '') throw new ImportFormatError(line, 'must not be empty', field);
  const unstorable = unstorableText(value);
  if (unstorable) throw new ImportFormatError(line, unstorable, field);
  return value;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function pageField(record: Record<string, unknown>, line: number): number {
  const value = record['page'];
  if (value === undefined || value === null) throw new ImportFormatError(line, 'is required', 'page');
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ImportFormatError(line, `must be a positive integer, got ${JSON.stringify(value)}`, 'page');
  }
  return value;
}

function htmlField(record: Record<string, unknown>, line: number): string | null {
  const value = record['html'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ImportFormatError(line, `must be a string, got ${typeOf(value)}`, 'html');
  const unstorable = unstorableText(value);
  if (unstorable) throw new ImportFormatError(line, unstorable, 'html');
  return value;
}

function parseObject(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportFormatError(line, `invalid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ImportFormatError(line, `expected a JSON object, got ${typeOf(value)}`);
  }
  return value as Record<string, unknown>;
}

/** Parses and validates one JSON line; `line` is its 1-based number for error messages. */
export function parsePageLine(text: string, line: number): JsonlRecord {
  const record = parseObject(text, line);
  const bookId = stringField(record, 'book_id', line, true);
  if (!BOOK_ID.test(bookId)) {
    throw new ImportFormatError(line, 'must be 1-200 characters of A-Z a-z 0-9 _ . - (it forms page ids)', 'book_id');
  }
  return {
    bookId,
    title: stringField(record, 'book', line, true),
    authors: stringField(record, 'authors', line),
    category: stringField(record, 'category', line),
    part: stringField(record, 'part', line),
    page: pageField(record, line),
    text: stringField(record, 'text', line),
    html: htmlField(record, line),
  };
}

/** Groups validated lines into books and pages, rejecting interleaved books and repeated pages. */
export class JsonlPageParser {
  private lineNumber = 0;
  private current: JsonlBook | null = null;
  private pagesOfCurrent = new Set<number>();
  private readonly finishedBooks = new Set<string>();

  feed(rawLine: string): JsonlEvent[] {
    this.lineNumber += 1;
    const text = (this.lineNumber === 1 ? rawLine.replace(/^\uFEFF/, '') : rawLine).trim();
    if (text === '') return [];
    const record = parsePageLine(text, this.lineNumber);
    const events: JsonlEvent[] = [];
    if (this.current?.bookId !== record.bookId) events.push(this.startBook(record));
    else this.checkSameBook(this.current, record);
    if (this.pagesOfCurrent.has(record.page)) {
      throw new ImportFormatError(this.lineNumber, `page ${record.page} of book "${record.bookId}" appears twice`, 'page');
    }
    this.pagesOfCurrent.add(record.page);
    events.push({ type: 'page', page: this.pageOf(record) });
    return events;
  }

  private startBook(record: JsonlRecord): JsonlEvent {
    if (this.current) this.finishedBooks.add(this.current.bookId);
    if (this.finishedBooks.has(record.bookId)) {
      throw new ImportFormatError(
        this.lineNumber,
        `book "${record.bookId}" appears again after other books; lines of one book must be consecutive`,
        'book_id',
      );
    }
    const { bookId, title, authors, category } = record;
    this.current = { bookId, title, authors, category, line: this.lineNumber };
    this.pagesOfCurrent = new Set();
    return { type: 'book', book: this.current };
  }

  private checkSameBook(book: JsonlBook, record: JsonlRecord): void {
    const fields: Array<[string, string, string]> = [
      ['book', book.title, record.title],
      ['authors', book.authors, record.authors],
      ['category', book.category, record.category],
    ];
    for (const [field, expected, actual] of fields) {
      if (expected !== actual) {
        throw new ImportFormatError(
          this.lineNumber,
          `differs from line ${book.line} of the same book (${JSON.stringify(expected)})`,
          field,
        );
      }
    }
  }

  private pageOf(record: JsonlRecord): JsonlPage {
    const { bookId, page, part, text, html } = record;
    return { id: `${bookId}-${page}`, bookId, page, part, text, html, line: this.lineNumber };
  }
}

/** Streams book and page events from JSON Lines. */
export async function* parseJsonl(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<JsonlEvent, void, undefined> {
  const parser = new JsonlPageParser();
  for await (const line of lines) yield* parser.feed(line);
}
