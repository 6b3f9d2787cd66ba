import { Field, Int, ObjectType } from 'type-graphql';
import type { ImportedBook } from './library-import.service.js';
import type { ImportFormat } from './sources.js';

@ObjectType({ description: 'One book stored by an import.' })
export class LibraryImportedBook {
  @Field(() => String)
  bookId!: string;

  @Field(() => String)
  title!: string;

  @Field(() => Int)
  parts!: number;

  @Field(() => Int)
  pages!: number;
}

@ObjectType({ description: 'What an import stored; a JSON Lines file may hold several books.' })
export class LibraryImportResult {
  @Field(() => String, { description: 'The (first) book imported.' })
  bookId!: string;

  @Field(() => Int, { description: 'Parts of all books imported.' })
  parts!: number;

  @Field(() => Int, { description: 'Pages of all books imported.' })
  pages!: number;

  @Field(() => [LibraryImportedBook])
  books!: LibraryImportedBook[];
}

export const IMPORT_FORMATS: readonly ImportFormat[] = ['openiti', 'jsonl'];

/** The result of an import: its first book's id and the totals of all books it stored. */
export function importResult(books: readonly ImportedBook[]): LibraryImportResult {
  return Object.assign(new LibraryImportResult(), {
    bookId: books[0]!.bookId,
    parts: books.reduce((sum, book) => sum + book.parts, 0),
    pages: books.reduce((sum, book) => sum + book.pages, 0),
    books: books.map((book) => Object.assign(new LibraryImportedBook(), book)),
  });
}
