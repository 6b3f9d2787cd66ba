import { libraryChat, libraryModels } from '../../../contracts/library/chat.contract.js';
import { implement, implementStream, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { ChatService } from './chat.service.js';

/** Chat completions, whole or streamed, and the models a request may name. */
export function chatOperations(services: Services): Implementation[] {
  const chat = services.get(ChatService);
  return [
    implement(libraryChat, (input, { ctx, caller }) => chat.complete(ctx, caller.limits.maxLimit, input.request)),
    implementStream(libraryChat, (input, { ctx, caller }, signal) => chat.stream(ctx, caller.limits.maxLimit, input.request, signal)),
    implement(libraryModels, () => [...chat.listModels()]),
  ];
}
