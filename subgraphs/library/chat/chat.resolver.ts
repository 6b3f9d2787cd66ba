import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../shared/context.js';
import { LibraryAccess } from '../accounts/access.service.js';
import { ChatService } from './chat.service.js';
import { LibraryChatCompletion, LibraryChatInput, LibraryModel, toLibraryChatCompletion, toLibraryModel } from './chat.types.js';

/** Chat over library texts, whole (the streamed form is the `libraryChatCompletion` stream). */
@Resolver()
export class ChatResolver {
  static readonly inject = [LibraryAccess, ChatService];

  constructor(
    private readonly access: LibraryAccess,
    private readonly chat: ChatService,
  ) {}

  @Mutation(() => LibraryChatCompletion, {
    description:
      'Answers the conversation from library passages only, with the sources it cites (`/v1/chat/completions`). Counts as a call.',
  })
  async libraryChat(
    @Ctx() ctx: SubgraphContext,
    @Arg('request', () => LibraryChatInput) request: LibraryChatInput,
  ): Promise<LibraryChatCompletion> {
    const caller = await this.access.admit(ctx, 'chat');
    return toLibraryChatCompletion(await this.chat.complete(ctx, caller.limits.maxLimit, request));
  }

  @Query(() => [LibraryModel], { description: 'Models a chat request may name (`/v1/models`). Counts as a call.' })
  async libraryModels(@Ctx() ctx: SubgraphContext): Promise<LibraryModel[]> {
    await this.access.admit(ctx, 'models');
    return this.chat.listModels().map(toLibraryModel);
  }
}
