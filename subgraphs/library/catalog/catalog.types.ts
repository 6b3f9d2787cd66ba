import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A heading of a book; `depth` nests headings (1 = top level).' })
export class LibraryPart {
  @Field(() => String)
  bookId!: string;

  @Field(() => Int, { description: 'Position of the heading in the book, from 1.' })
  index!: number;

  @Field(() => Int)
  depth!: number;

  @Field(() => String)
  title!: string;

  @Field(() => Int, { nullable: true, description: '`index` of the enclosing heading.' })
  parentIndex!: number | null;

  @Field(() => Int, { nullable: true, description: 'Number of the page on which the heading stands.' })
  page!: number | null;
}

@ObjectType({ description: 'A book of the library.' })
export class LibraryBook {
  @Field(() => String)
  id!: string;

  @Field(() => String)
  title!: string;

  @Field(() => [String])
  authors!: string[];

  @Field(() => String)
  category!: string;

  @Field(() => Int, { nullable: true, description: 'Printed volumes, when the source says.' })
  volumes!: number | null;

  @Field(() => Int)
  partCount!: number;

  @Field(() => Int)
  pageCount!: number;

  @Field(() => String, { description: '`openiti`, `jsonl` or `quran-json`.' })
  sourceFormat!: string;

  @Field(() => String, { nullable: true, description: 'OpenITI URI of the text, when it has one.' })
  sourceUri!: string | null;
}

@ObjectType({ description: 'One window of the book list.' })
export class LibraryBookList {
  @Field(() => Int, { description: 'Books matching the filters, in all windows.' })
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  offset!: number;

  @Field(() => [LibraryBook])
  items!: LibraryBook[];
}

@ObjectType({ description: 'One window of the table of contents of a book.' })
export class LibraryToc {
  @Field(() => String)
  bookId!: string;

  @Field(() => LibraryBook, { nullable: true, description: 'Null when no book has this id.' })
  book!: LibraryBook | null;

  @Field(() => Int)
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  offset!: number;

  @Field(() => [LibraryPart])
  items!: LibraryPart[];
}

@ObjectType({ description: 'The full text of one page.' })
export class LibraryPage {
  @Field(() => String, { description: '`<book_id>-<page>`.' })
  id!: string;

  @Field(() => String)
  bookId!: string;

  @Field(() => LibraryBook)
  book!: LibraryBook;

  @Field(() => Int, { description: 'Page number within the book, 1…n across volumes.' })
  page!: number;

  @Field(() => String, { nullable: true, description: 'Printed volume (OpenITI `PageV01P005` → "01").' })
  volume!: string | null;

  @Field(() => Int, { nullable: true, description: 'Printed page number within its volume.' })
  volumePage!: number | null;

  @Field(() => String, { nullable: true, description: 'Original page label, e.g. `V01P005`.' })
  label!: string | null;

  @Field(() => String)
  part!: string;

  @Field(() => String, { description: 'Plain text, or the original markup when `html` was asked for.' })
  text!: string;

  @Field(() => Boolean, { description: 'Whether `text` is the original markup.' })
  markup!: boolean;

  @Field(() => String, { nullable: true })
  previousId!: string | null;

  @Field(() => String, { nullable: true })
  nextId!: string | null;
}

@ObjectType({ description: 'A category or author with its number of books.' })
export class LibraryCatalogCount {
  @Field(() => String)
  name!: string;

  @Field(() => Int)
  books!: number;
}

@ObjectType()
export class LibraryAuthorList {
  @Field(() => Int, { description: 'Authors matching `q`, in all.' })
  total!: number;

  @Field(() => [LibraryCatalogCount], { description: 'Ordered by number of books, most first.' })
  items!: LibraryCatalogCount[];
}

@ObjectType({ description: 'Totals of the index.' })
export class LibraryStats {
  @Field(() => Int)
  books!: number;

  @Field(() => Int)
  parts!: number;

  @Field(() => Int)
  pages!: number;

  @Field(() => Int)
  authors!: number;

  @Field(() => Int)
  categories!: number;

  @Field(() => String, { description: 'Search engine in use: `postgres` or `meilisearch`.' })
  engine!: string;
}
