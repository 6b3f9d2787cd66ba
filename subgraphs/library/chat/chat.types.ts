import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { LibraryPassage } from '../search/retrieval.types.js';
import type { ChatCompletion } from './chat-events.js';
import type { ChatModel } from './chat-models.js';

@InputType({
  description: 'One message of the conversation; both fields are required (checked by the service, which names the one missing).',
})
export class LibraryChatMessageInput {
  @Field(() => String, { nullable: true, description: '`system`, `developer`, `user`, `assistant` or `tool`.' })
  role!: string | null;

  @Field(() => String, { nullable: true })
  content!: string | null;
}

@InputType({ description: 'A chat request in the chat-completions format (camelCase); `messages` is required.' })
export class LibraryChatInput {
  @Field(() => String, { nullable: true, description: 'Defaults to `library-rag`; see `libraryModels`.' })
  model!: string | null;

  @Field(() => [LibraryChatMessageInput], { nullable: true })
  messages!: LibraryChatMessageInput[] | null;

  @Field(() => Float, { nullable: true, description: '0–2; passed to an LLM upstream.' })
  temperature!: number | null;

  @Field(() => Float, { nullable: true, description: '0–1; passed to an LLM upstream.' })
  topP!: number | null;

  @Field(() => Int, { nullable: true, description: 'Longest answer in tokens (estimated for extractive answers).' })
  maxTokens!: number | null;

  @Field(() => Int, { nullable: true, description: 'Choices to return; only 1 is supported.' })
  n!: number | null;

  @Field(() => [String], { nullable: true, description: 'Up to 4 stop sequences; passed to an LLM upstream.' })
  stop!: string[] | null;

  @Field(() => Int, { nullable: true })
  seed!: number | null;

  @Field(() => Float, { nullable: true })
  presencePenalty!: number | null;

  @Field(() => Float, { nullable: true })
  frequencyPenalty!: number | null;
}

@ObjectType({ description: 'Token counts; estimated (words and punctuation) unless an LLM upstream reported them.' })
export class LibraryChatUsage {
  @Field(() => Int)
  promptTokens!: number;

  @Field(() => Int)
  completionTokens!: number;

  @Field(() => Int)
  totalTokens!: number;
}

@ObjectType({ description: 'A passage the answer may cite; the answer refers to it as `[ref]`.' })
export class LibraryChatSource {
  @Field(() => Int, { description: 'The number of the `[n]` markers in the answer.' })
  ref!: number;

  @Field(() => LibraryPassage)
  passage!: LibraryPassage;
}

@ObjectType({ description: 'A chat completion grounded only in library passages.' })
export class LibraryChatCompletion {
  @Field(() => String)
  id!: string;

  @Field(() => Int, { description: 'Epoch seconds.' })
  created!: number;

  @Field(() => String)
  model!: string;

  @Field(() => String, { description: 'The answer, with `[n]` markers pointing at `sources`.' })
  answer!: string;

  @Field(() => String, { description: '`stop`, `length` or `content_filter`.' })
  finishReason!: string;

  @Field(() => LibraryChatUsage)
  usage!: LibraryChatUsage;

  @Field(() => Int, { description: 'Pages matching the retrieval query in the whole index.' })
  hits!: number;

  @Field(() => Boolean, { description: 'Whether a language model wrote the answer.' })
  ai!: boolean;

  @Field(() => [LibraryChatSource])
  sources!: LibraryChatSource[];
}

@ObjectType({ description: 'A model a chat request may name.' })
export class LibraryModel {
  @Field(() => String)
  id!: string;

  @Field(() => Int, { description: 'Epoch seconds.' })
  created!: number;

  @Field(() => String)
  ownedBy!: string;
}

export function toLibraryChatCompletion(completion: ChatCompletion): LibraryChatCompletion {
  return Object.assign(new LibraryChatCompletion(), {
    ...completion,
    usage: Object.assign(new LibraryChatUsage(), completion.usage),
    sources: completion.sources.map((source) =>
      Object.assign(new LibraryChatSource(), { ref: source.ref, passage: Object.assign(new LibraryPassage(), source.passage) }),
    ),
  });
}

export function toLibraryModel(model: ChatModel): LibraryModel {
  return Object.assign(new LibraryModel(), model);
}
