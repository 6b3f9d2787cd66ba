/**
 * The one stream every import source is turned into: a book, then its parts and pages in order.
 * OpenITI mARkdown, JSON Lines and the demo Qur'an each adapt their own parser to it, so a single
 * writer stores books the same way whatever they came from.
 */
export interface BookRecord {
  readonly id: string;
  readonly title: string;
  readonly authors: readonly string[];
  readonly category: string;
  /** `openiti`, `jsonl` or `quran-json`. */
  readonly sourceFormat: string;
  readonly sourceUri: string | null;
  readonly sourceMeta: Readonly<Record<string, string>>;
  readonly volumes: number | null;
}

export interface PartRecord {
  /** 1-based position of the heading in the book. */
  readonly index: number;
  readonly depth: number;
  readonly title: string;
  readonly parentIndex: number | null;
  /** Number of the page on which the heading stands. */
  readonly page: number | null;
}

export interface PageRecord {
  /** 1…n through the whole book, across volumes. */
  readonly page: number;
  readonly volume: string | null;
  readonly volumePage: number | null;
  readonly label: string | null;
  readonly partIndex: number | null;
  readonly part: string;
  readonly text: string;
  /** The page as the source wrote it (mARkdown, HTML), or null when it had no markup. */
  readonly markup: string | null;
}

export type LibraryEvent =
  | { readonly type: 'book'; readonly book: BookRecord; readonly line: number | null }
  | { readonly type: 'part'; readonly part: PartRecord; readonly line: number | null }
  | { readonly type: 'page'; readonly page: PageRecord; readonly line: number | null };

// Page ids `<book_id>-<page>` travel in URLs, so book ids stay URL-safe (same rule as the JSONL parser).
export const BOOK_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;

/** A URL-safe book id made from a file name or an OpenITI URI (`0281.IbnAbiDunya.Sabr`). */
export function bookIdFrom(name: string): string {
  const cleaned = name
    .replace(/^#/, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 200);
  return cleaned === '' ? 'book' : cleaned;
}
