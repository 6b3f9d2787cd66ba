import type { KeyMode } from '../../contracts/research/account-types.js';
import type { Config } from '../../runtime/config.js';
import type { Logger } from '../../runtime/logger.js';
import type { AssistantProvider } from './assistant/assistant-provider.js';
import { LlmAssistant } from './assistant/llm-assistant.js';
import { OfflineAssistant } from './assistant/offline-assistant.js';
import { StructuredCompletion } from './llm/structured-completion.js';
import { LlmResearcher, OfflineResearcher, type ResearchProvider } from './runs/research-provider.js';

/**
 * Which provider serves a key's mode: test keys always run offline (the sandbox); live
 * keys use the LLM upstream when `LLM_BASE_URL` is set, else the offline rules too.
 */
export class Providers {
  private readonly offlineAssistant = new OfflineAssistant();
  private readonly offlineResearcher = new OfflineResearcher();
  private readonly llmAssistant: AssistantProvider | undefined;
  private readonly llmResearcher: ResearchProvider | undefined;

  constructor(config: Config, logger: Logger) {
    if (!config.llmBaseUrl) return;
    const llm = new StructuredCompletion({
      baseUrl: config.llmBaseUrl,
      apiKey: config.llmApiKey,
      model: config.llmModel ?? 'gpt-4o-mini',
      timeoutMs: config.llmTimeoutMs,
      logger,
    });
    this.llmAssistant = new LlmAssistant(llm);
    this.llmResearcher = new LlmResearcher(llm);
  }

  assistant(mode: KeyMode): AssistantProvider {
    return (mode === 'live' && this.llmAssistant) || this.offlineAssistant;
  }

  researcher(mode: KeyMode): ResearchProvider {
    return (mode === 'live' && this.llmResearcher) || this.offlineResearcher;
  }
}
