import { basename } from 'node:path';
import { ImportFormatError } from './import-errors.js';
import { parseJsonl } from './jsonl.js';
import { BOOK_ID, bookIdFrom, type LibraryEvent, type PartRecord } from './library-events.js';
import { parseOpenITI } from './openiti.js';

export type ImportFormat = 'openiti' | 'jsonl';

export interface SourceOptions {
  /** Book id to store the book under, instead of the one the file implies. */
  readonly bookId?: string;
  /** File name, for books whose header names no URI. */
  readonly fileName?: string;
}

/** Format of a file from its first non-empty line: the OpenITI magic, or a JSON object. */
export function detectFormat(firstLine: string): ImportFormat | null {
  const line = firstLine.replace(/^\uFEFF/, '').trim();
  if (line.startsWith('######OpenITI#')) return 'openiti';
  if (line.startsWith('{')) return 'jsonl';
  return null;
}

function checkBookId(bookId: string | undefined): void {
  if (bookId !== undefined && !BOOK_ID.test(bookId)) {
    throw new ImportFormatError(0, 'must be 1-200 characters of A-Z a-z 0-9 _ . - (it forms page ids)', 'book_id');
  }
}

/** OpenITI id: the header's URI (`0281.IbnAbiDunya.Sabr`), else author.book of the file name. */
function openitiBookId(uri: string | null, fileName: string | undefined): string {
  if (uri) return bookIdFrom(uri);
  if (fileName) return bookIdFrom(basename(fileName).split('.').slice(0, 2).join('.'));
  throw new ImportFormatError(1, 'the header names no book URI and no file name was given: pass book_id', 'book_id');
}

export async function* openitiEvents(
  lines: AsyncIterable<string> | Iterable<string>,
  options: SourceOptions = {},
): AsyncGenerator<LibraryEvent> {
  checkBookId(options.bookId);
  for await (const event of parseOpenITI(lines)) {
    if (event.type === 'book') {
      const { book } = event;
      const id = options.bookId ?? openitiBookId(book.uri, options.fileName);
      yield {
        type: 'book',
        line: 1,
        book: {
          id,
          title: book.title || id,
          authors: book.authors,
          category: book.category,
          sourceFormat: 'openiti',
          sourceUri: book.uri,
          sourceMeta: book.meta,
          volumes: book.volumes,
        },
      };
    } else if (event.type === 'part') {
      const { index, depth, title, parentIndex, page, line } = event.part;
      yield { type: 'part', line, part: { index, depth, title, parentIndex, page } };
    } else {
      const { page, volume, volumePage, label, partIndex, part, text, markup, line } = event.page;
      yield { type: 'page', line, page: { page, volume, volumePage, label, partIndex, part, text, markup } };
    }
  }
}

/**
 * JSON Lines pages; parts are made from the `part` names in page order (a new name opens a part),
 * so `/v1/toc` works for these books too. With `bookId` the file must hold one book only.
 */
export async function* jsonlEvents(
  lines: AsyncIterable<string> | Iterable<string>,
  options: SourceOptions = {},
): AsyncGenerator<LibraryEvent> {
  checkBookId(options.bookId);
  let books = 0;
  let parts = new Map<string, PartRecord>();
  for await (const event of parseJsonl(lines)) {
    if (event.type === 'book') {
      const { book } = event;
      books += 1;
      if (options.bookId !== undefined && books > 1) {
        throw new ImportFormatError(book.line, 'book_id was given, so the file must hold one book only', 'book_id');
      }
      parts = new Map();
      yield {
        type: 'book',
        line: book.line,
        book: {
          id: options.bookId ?? book.bookId,
          title: book.title,
          // Names themselves contain commas (`الترمذي، أبو عيسى`), so only OpenITI's `::` separates authors.
          authors: book.authors
            .split('::')
            .map((name) => name.trim())
            .filter(Boolean),
          category: book.category,
          sourceFormat: 'jsonl',
          sourceUri: null,
          sourceMeta: { book_id: book.bookId },
          volumes: null,
        },
      };
      continue;
    }
    const { page } = event;
    const title = page.part.trim();
    let part = title === '' ? undefined : parts.get(title);
    if (title !== '' && part === undefined) {
      part = { index: parts.size + 1, depth: 1, title, parentIndex: null, page: page.page };
      parts.set(title, part);
      yield { type: 'part', line: page.line, part };
    }
    yield {
      type: 'page',
      line: page.line,
      page: {
        page: page.page,
        volume: null,
        volumePage: null,
        label: null,
        partIndex: part?.index ?? null,
        part: title,
        text: page.text,
        markup: page.html,
      },
    };
  }
}

export function eventsOf(
  format: ImportFormat,
  lines: AsyncIterable<string> | Iterable<string>,
  options: SourceOptions = {},
): AsyncGenerator<LibraryEvent> {
  const checked = withoutNul(lines);
  return format === 'openiti' ? openitiEvents(checked, options) : jsonlEvents(checked, options);
}

/** PostgreSQL text cannot hold a NUL character: a line with one is refused, naming it. */
async function* withoutNul(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (line.includes('\u0000')) throw new ImportFormatError(number, 'must not contain NUL characters');
    yield line;
  }
}

/** Lines of an in-memory body, produced lazily so no array of lines is ever built. */
export function* linesOf(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end < 0) {
      yield text.slice(start);
      return;
    }
    yield text.slice(start, end);
    start = end + 1;
  }
}
