import { defineStream } from '../../shared/streams.js';
import type { SubgraphRuntime } from '../../shared/subgraph.js';
import { LibraryAccess } from '../accounts/access.service.js';
import { RetrievalService } from '../search/retrieval.service.js';
import type { SearchEngine } from '../search/search-engine.js';
import type { Answerer } from './answerer.js';
import { chatModels } from './chat-models.js';
import type { ChatInput } from './chat-request.js';
import { ChatResolver } from './chat.resolver.js';
import { ChatService } from './chat.service.js';
import { ExtractiveAnswerer } from './extractive-answerer.js';
import { ChatGrounding } from './grounding.js';
import { LlmAnswerer } from './llm-answerer.js';
import { LlmClient } from './llm-client.js';

/** What the library module takes from chat: resolvers, services and the streamed completion. */
export const chatResolvers = [ChatResolver] as const;

/** The LLM upstream when `LLM_BASE_URL` is set, else extractive answers. */
export function createAnswerer(runtime: SubgraphRuntime): Answerer {
  const { llmBaseUrl, llmApiKey, llmModel, llmTimeoutMs } = runtime.config;
  if (!llmBaseUrl || !llmModel) return new ExtractiveAnswerer();
  const logger = runtime.logger.child({ component: 'llm-upstream' });
  return new LlmAnswerer(new LlmClient({ baseUrl: llmBaseUrl, apiKey: llmApiKey, model: llmModel, timeoutMs: llmTimeoutMs, logger }));
}

export function createChatServices(runtime: SubgraphRuntime, engine: SearchEngine): object[] {
  const grounding = new ChatGrounding(new RetrievalService(engine, runtime.logger));
  return [new ChatService(grounding, createAnswerer(runtime), chatModels(runtime.config.llmModel))];
}

/** Input of the stream: the variables of the `LibraryChat` operation. */
interface ChatStreamInput {
  readonly request?: ChatInput | null;
}

/** `libraryChatCompletion`: the events of one completion, admitted like every metered call before the first one. */
export const chatStreams = {
  libraryChatCompletion: defineStream(
    [LibraryAccess, ChatService] as const,
    (access, chat) =>
      async function* (input, ctx, signal) {
        const caller = await access.admit(ctx, 'chat');
        const request = (input as ChatStreamInput | null)?.request ?? {};
        yield* chat.stream(ctx, caller.limits.maxLimit, request, signal);
      },
  ),
};
