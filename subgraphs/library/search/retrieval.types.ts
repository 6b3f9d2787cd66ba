import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A passage cut from inside a page around the query words, with what a citation needs.' })
export class LibraryPassage {
  @Field(() => String, { description: 'Page identifier `<book_id>-<page>`.' })
  id!: string;

  @Field(() => String)
  bookId!: string;

  @Field(() => String, { description: 'Book title.' })
  book!: string;

  @Field(() => String)
  category!: string;

  @Field(() => [String])
  authors!: string[];

  @Field(() => String, { description: 'Part or chapter the page belongs to.' })
  part!: string;

  @Field(() => Int, { description: 'Page number within the book (1…n across volumes).' })
  page!: number;

  @Field(() => Float, { description: 'BM25 relevance (PostgreSQL) or ranking score (Meilisearch); higher is better.' })
  score!: number;

  @Field(() => Int, { description: 'Offset of the passage in the page text (UTF-16 code units).' })
  start!: number;

  @Field(() => Int)
  length!: number;

  @Field(() => Int, { description: 'Length of the whole page text.' })
  pageChars!: number;

  @Field(() => String, { description: 'Exactly `pageText.slice(start, start + length)`.' })
  text!: string;

  @Field(() => String, { nullable: true, description: 'The whole page text, when asked for.' })
  pageText!: string | null;
}

@ObjectType({ description: 'Ranked passages for a query.' })
export class LibraryRetrieveResult {
  @Field(() => String, { description: 'The query as received.' })
  query!: string;

  @Field(() => String, { description: '`passage` (retrieve) or `page` (search).' })
  mode!: string;

  @Field(() => Int, { description: 'Number of matching pages in the whole (filtered) index.' })
  hits!: number;

  @Field(() => [LibraryPassage])
  passages!: LibraryPassage[];

  @Field(() => Int)
  returned!: number;
}
