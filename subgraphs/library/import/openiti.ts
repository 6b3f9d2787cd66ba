/**
 * Streaming parser for OpenITI mARkdown books: header metadata, `### |` parts and pages.
 *
 * Page numbering: `page` is the 1-based position of the page in the book, in file order, counting
 * only pages that carry text. Volume-local labels cannot serve as ids: numbers restart in every
 * volume, Shamela exports repeat `PageV00P000` for every unnumbered page, and some files repeat a
 * label (`PageV01P052` four times in a row). The original label is kept for citation in `volume`
 * (string, e.g. "01", "M"), `volumePage` (number) and `label` (e.g. "V01P005").
 *
 * Page boundaries: a marker `PageV..P..` closes the page; text before it belongs to it, text after it
 * on the same line starts the next page. Text after the last marker becomes a final page with
 * `label`/`volumePage` null and the last marker's volume. Pages without text (e.g. two markers in a
 * row) are skipped. A page that grows past `maxPageChars` without a marker is closed at the next
 * paragraph with a null label, so memory stays bounded even for books that have no markers at all.
 *
 * Parts: headings with an empty title (`### | `) are ignored; a page belongs to the heading in force
 * where its text begins.
 */
import { ImportFormatError } from './import-errors.js';

export interface OpenitiBook {
  title: string;
  authors: string[];
  /** First subject of `021.BookSUBJ`; empty when the header gives none. */
  category: string;
  subjects: string[];
  volumes: number | null;
  uri: string | null;
  /** Every header field as written (keys without the `#META#` prefix). */
  meta: Record<string, string>;
}

export interface OpenitiPart {
  index: number;
  depth: number;
  title: string;
  parentIndex: number | null;
  /** Number of the page on which the heading stands. */
  page: number;
  line: number;
}

export interface OpenitiPage {
  page: number;
  volume: string | null;
  volumePage: number | null;
  label: string | null;
  part: string;
  partIndex: number | null;
  text: string;
  markup: string;
  /** 1-based line on which the page's markup begins. */
  line: number;
}

export type OpenitiEvent = { type: 'book'; book: OpenitiBook } | { type: 'part'; part: OpenitiPart } | { type: 'page'; page: OpenitiPage };

export interface OpenitiOptions {
  maxPageChars?: number;
}

const MAGIC = '######OpenITI#';
const HEADER_END = '#META#Header#End#';
const MARKER = /PageV([0-9A-Za-z]+?)P(\d+)/g;
const EMPTY_VALUES = new Set(['', 'NODATA', 'NOTGIVEN']);

type LineKind = 'heading' | 'paragraph' | 'continuation';

interface ClassifiedLine {
  kind: LineKind;
  prefixLength: number;
  depth: number;
}

/** Line role from its opening markup; unmarked lines continue the current paragraph. */
function classify(line: string): ClassifiedLine {
  const heading = /^### (\|+)/.exec(line);
  if (heading?.[1]) return { kind: 'heading', prefixLength: heading[0].length, depth: heading[1].length };
  const other = /^(?:### ?[^|\s]*|#~?:?|~#) ?/.exec(line);
  if (other) return { kind: 'paragraph', prefixLength: other[0].length, depth: 0 };
  if (line.startsWith('~~')) return { kind: 'continuation', prefixLength: 2, depth: 0 };
  return { kind: 'continuation', prefixLength: 0, depth: 0 };
}

/** Plain text of a markup segment: milestones, Qur'an tags, poetry separators and structure bars removed. */
export function stripInlineMarkup(segment: string): string {
  return segment
    .replace(/(?<![\p{L}\p{N}])(?:ms\d+|Milestone\d+)(?![\p{L}\p{N}])/gu, ' ')
    .replace(/@[A-Z0-9]+@/g, ' ')
    .replace(/%~%/g, ' ')
    .replace(/\|/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function presentValue(meta: Record<string, string>, keys: string[]): string | null {
  for (const key of keys) {
    const value = meta[key];
    if (value !== undefined && !EMPTY_VALUES.has(value)) return value;
  }
  return null;
}

/** Book fields from `#META#` header values, with the Würzburg/ALCorpus header names as fallback. */
export function bookFromMeta(meta: Record<string, string>): OpenitiBook {
  const title = presentValue(meta, ['020.BookTITLE', 'title', 'title_transcription', 'title_short']) ?? '';
  const author = presentValue(meta, ['010.AuthorNAME', 'author', 'author_transcription', 'author_latin']);
  const subject = presentValue(meta, ['021.BookSUBJ']);
  const subjects = subject === null ? [] : splitList(subject);
  const volumes = Number.parseInt(presentValue(meta, ['022.BookVOLS']) ?? '', 10);
  const uri = presentValue(meta, ['000.BookURI']);
  return {
    title,
    authors: author === null ? [] : splitList(author),
    category: subjects[0] ?? '',
    subjects,
    volumes: Number.isFinite(volumes) ? volumes : null,
    uri: uri === null ? null : uri.replace(/^#/, ''),
    meta: { ...meta },
  };
}

function splitList(value: string): string[] {
  return value
    .split('::')
    .map((item) => item.trim())
    .filter((item) => !EMPTY_VALUES.has(item));
}

/** One page being filled; only the current page is ever held in memory. */
class PageBuffer {
  readonly lines: string[] = [];
  readonly markup: string[] = [];
  firstLine = 0;
  chars = 0;
  part: OpenitiPart | null = null;

  addRaw(piece: string, line: number): void {
    if (this.markup.length === 0) {
      // Blank lines between pages would otherwise open every page's markup.
      if (piece.trim() === '') return;
      this.firstLine = line;
    }
    this.markup.push(piece);
  }

  addText(text: string, newParagraph: boolean, part: OpenitiPart | null): void {
    if (text === '') return;
    if (this.lines.length === 0) this.part = part;
    const last = this.lines.length - 1;
    if (newParagraph || last < 0) this.lines.push(text);
    else this.lines[last] = `${this.lines[last]} ${text}`;
    this.chars += text.length + 1;
  }
}

interface Label {
  volume: string | null;
  volumePage: number | null;
  label: string | null;
}

/** Incremental parser: feed lines one at a time, then call `finish`; each call returns completed events. */
export class OpenitiParser {
  private phase: 'magic' | 'header' | 'body' = 'magic';
  private readonly meta: Record<string, string> = {};
  private readonly maxPageChars: number;
  private lineNumber = 0;
  private buffer = new PageBuffer();
  private pageCount = 0;
  private partStack: OpenitiPart[] = [];
  private currentPart: OpenitiPart | null = null;
  private partCount = 0;
  private lastVolume: string | null = null;

  constructor(options: OpenitiOptions = {}) {
    this.maxPageChars = options.maxPageChars ?? 20_000;
  }

  feed(rawLine: string): OpenitiEvent[] {
    this.lineNumber += 1;
    const line = rawLine.replace(/\r$/, '');
    if (this.phase === 'magic') return this.magicLine(line);
    if (this.phase === 'header') return this.headerLine(line);
    return this.bodyLine(line);
  }

  finish(): OpenitiEvent[] {
    const line = Math.max(this.lineNumber, 1);
    if (this.phase === 'magic') throw new ImportFormatError(line, `empty input: expected "${MAGIC}" first line`);
    if (this.phase === 'header') {
      throw new ImportFormatError(line, `input ended inside the header: "${HEADER_END}" is missing`);
    }
    return this.closePage({ volume: this.lastVolume, volumePage: null, label: null });
  }

  private magicLine(line: string): OpenitiEvent[] {
    if (line.replace(/^\uFEFF/, '').trimEnd() !== MAGIC) {
      throw new ImportFormatError(this.lineNumber, `not an OpenITI file: first line must be "${MAGIC}"`);
    }
    this.phase = 'header';
    return [];
  }

  private headerLine(line: string): OpenitiEvent[] {
    const trimmed = line.trim();
    if (trimmed === '') return [];
    if (trimmed === HEADER_END) {
      this.phase = 'body';
      return [{ type: 'book', book: bookFromMeta(this.meta) }];
    }
    if (!trimmed.startsWith('#META#')) {
      throw new ImportFormatError(this.lineNumber, `expected a "#META#" line or "${HEADER_END}" in the header`);
    }
    const entry = trimmed.slice('#META#'.length);
    const pair = /^\s*(.+?)\s*::\s*(.*)$/.exec(entry) ?? /^\s*([\w.-]+):\s*(.*)$/.exec(entry);
    if (!pair?.[1]) throw new ImportFormatError(this.lineNumber, '"#META#" line is not "key :: value"');
    this.meta[pair[1]] = (pair[2] ?? '').trim();
    return [];
  }

  private bodyLine(line: string): OpenitiEvent[] {
    const { kind, prefixLength, depth } = classify(line);
    const body = line.slice(prefixLength);
    const events: OpenitiEvent[] = [];
    if (kind !== 'continuation' && this.buffer.chars >= this.maxPageChars) {
      events.push(...this.closePage({ volume: this.lastVolume, volumePage: null, label: null }));
    }
    if (kind === 'heading') events.push(...this.heading(body, depth));
    let position = 0;
    for (const marker of body.matchAll(MARKER)) {
      const end = marker.index + marker[0].length;
      const piece = position === 0 ? line.slice(0, prefixLength + end) : body.slice(position, end);
      this.addSegment(body.slice(position, marker.index), kind !== 'continuation' && position === 0, piece);
      events.push(...this.closePage(this.labelOf(marker[1] ?? '', marker[2] ?? '0')));
      position = end;
    }
    const rest = position === 0 ? line : body.slice(position);
    if (position === 0 || rest.trim() !== '') {
      this.addSegment(body.slice(position), kind !== 'continuation' && position === 0, rest);
    }
    return events;
  }

  private addSegment(segment: string, newParagraph: boolean, rawPiece: string): void {
    const stray = segment.indexOf('PageV');
    if (stray >= 0) throw new ImportFormatError(this.lineNumber, `malformed page marker "${segment.slice(stray, stray + 16)}"`);
    this.buffer.addRaw(rawPiece, this.lineNumber);
    this.buffer.addText(stripInlineMarkup(segment), newParagraph, this.currentPart);
  }

  private labelOf(volume: string, page: string): Label {
    this.lastVolume = volume;
    return { volume, volumePage: Number.parseInt(page, 10), label: `V${volume}P${page}` };
  }

  private heading(body: string, depth: number): OpenitiEvent[] {
    const title = stripInlineMarkup(body.replace(MARKER, ' '));
    if (title === '') return [];
    while ((this.partStack.at(-1)?.depth ?? 0) >= depth) this.partStack.pop();
    this.partCount += 1;
    const part: OpenitiPart = {
      index: this.partCount,
      depth,
      title,
      parentIndex: this.partStack.at(-1)?.index ?? null,
      page: this.pageCount + 1,
      line: this.lineNumber,
    };
    this.partStack.push(part);
    this.currentPart = part;
    return [{ type: 'part', part }];
  }

  private closePage(label: Label): OpenitiEvent[] {
    const { lines, markup, firstLine, part } = this.buffer;
    this.buffer = new PageBuffer();
    if (lines.length === 0) return [];
    this.pageCount += 1;
    const page = { page: this.pageCount, ...label, part: part?.title ?? '', partIndex: part?.index ?? null };
    return [{ type: 'page', page: { ...page, text: lines.join('\n'), markup: markup.join('\n'), line: firstLine } }];
  }
}

/** Streams book, part and page events from the lines of an OpenITI mARkdown file. */
export async function* parseOpenITI(
  lines: AsyncIterable<string> | Iterable<string>,
  options: OpenitiOptions = {},
): AsyncGenerator<OpenitiEvent, void, undefined> {
  const parser = new OpenitiParser(options);
  for await (const line of lines) yield* parser.feed(line);
  yield* parser.finish();
}
