import type { KeyMode } from '../../contracts/research/account-types.js';
import type { Config } from '../../runtime/config.js';
import type { Logger } from '../../runtime/logger.js';
import type { AssistantProvider } from './assistant/assistant-provider.js';
import { LlmAssistant } from './assistant/llm-assistant.js';
import { OfflineAssistant } from './assistant/offline-assistant.js';
import { StructuredCompletion } from './llm/structured-completion.js';
import { LlmResearcher, OfflineResearcher, type ResearchProvider } from './runs/research-provider.js';

/** The ledger reason of a live movement that costs nothing because the offline rules did the work. */
export type OfflineReason = 'offline_assistant' | 'offline_report';

/**
 * Which provider serves a key's mode: test keys always run offline (the sandbox); live
 * keys use the LLM upstream when `LLM_BASE_URL` is set, else the offline rules too —
 * and then they pay nothing for them (`freeReason`; see the offline-billing ADR).
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

  /**
   * Why a live turn or run is free: the offline rules serve it because no LLM is
   * configured. `null` when it is charged — always in test mode (the sandbox's own
   * credits), and in live mode with an LLM.
   */
  freeReason(mode: KeyMode, work: 'turn' | 'run'): OfflineReason | null {
    if (mode !== 'live' || this.llmAssistant) return null;
    return work === 'turn' ? 'offline_assistant' : 'offline_report';
  }

  assistant(mode: KeyMode): AssistantProvider {
    return (mode === 'live' && this.llmAssistant) || this.offlineAssistant;
  }

  researcher(mode: KeyMode): ResearchProvider {
    return (mode === 'live' && this.llmResearcher) || this.offlineResearcher;
  }
}
