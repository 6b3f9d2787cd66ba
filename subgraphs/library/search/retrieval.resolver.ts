import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../shared/context.js';
import { LibraryAccess } from '../accounts/access.service.js';
import { RetrievalService, type RetrievalResult } from './retrieval.service.js';
import { LibraryRetrieveResult } from './retrieval.types.js';

function result(found: RetrievalResult): LibraryRetrieveResult {
  return Object.assign(new LibraryRetrieveResult(), { ...found, returned: found.passages.length });
}

@Resolver()
export class RetrievalResolver {
  static readonly inject = [LibraryAccess, RetrievalService];

  constructor(
    private readonly access: LibraryAccess,
    private readonly retrieval: RetrievalService,
  ) {}

  @Query(() => LibraryRetrieveResult, { description: 'Passage retrieval for RAG (`/v1/retrieve`); bounds are checked, not capped.' })
  async libraryRetrieve(
    @Ctx() ctx: SubgraphContext,
    @Arg('q', () => String, { nullable: true }) q: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('book', () => String, { nullable: true, description: 'Book id or part of its title.' }) book: string | null,
    @Arg('category', () => String, { nullable: true }) category: string | null,
    @Arg('author', () => String, { nullable: true, description: 'Part of an author name.' }) author: string | null,
    @Arg('maxChars', () => Int, { nullable: true }) maxChars: number | null,
    @Arg('pageText', () => Boolean, { nullable: true, description: 'Add the whole page text to each passage.' }) pageText: boolean | null,
  ): Promise<LibraryRetrieveResult> {
    const caller = await this.access.admit(ctx, 'retrieve');
    const request = { q, limit, book, category, author, maxChars, withPageText: pageText };
    return result(await this.retrieval.retrieve(ctx.em, request, caller.limits.maxLimit));
  }

  @Query(() => LibraryRetrieveResult, { description: 'Page-level search (`/v1/search`): passages up to twice `maxChars`.' })
  async librarySearch(
    @Ctx() ctx: SubgraphContext,
    @Arg('q', () => String, { nullable: true }) q: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('book', () => String, { nullable: true }) book: string | null,
    @Arg('category', () => String, { nullable: true }) category: string | null,
    @Arg('author', () => String, { nullable: true }) author: string | null,
    @Arg('maxChars', () => Int, { nullable: true }) maxChars: number | null,
  ): Promise<LibraryRetrieveResult> {
    const caller = await this.access.admit(ctx, 'search');
    return result(await this.retrieval.search(ctx.em, { q, limit, book, category, author, maxChars }, caller.limits.maxLimit));
  }
}
