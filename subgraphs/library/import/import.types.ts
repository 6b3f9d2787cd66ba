import { Field, Int, ObjectType } from 'type-graphql';

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
