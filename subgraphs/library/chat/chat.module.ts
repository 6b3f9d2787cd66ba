import type { SubgraphRuntime } from '../../shared/subgraph.js';
import { RetrievalService } from '../search/retrieval.service.js';
import type { SearchEngine } from '../search/search-engine.js';
import type { Answerer } from './answerer.js';
import { chatModels } from './chat-models.js';
import { ChatService } from './chat.service.js';
import { ExtractiveAnswerer } from './extractive-answerer.js';
import { ChatGrounding } from './grounding.js';
import { LlmAnswerer } from './llm-answerer.js';
import { LlmClient } from './llm-client.js';

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
