import { ANAMNESIS_FIELDS } from '../../../contracts/research/case-types.js';
import { assessGaps, mergeAnamnesis } from './anamnesis.js';
import type { AssistantProvider, TurnInput, TurnResult } from './assistant-provider.js';
import { extractFields } from './offline-extraction.js';

/** The label every offline reply starts with: nobody should mistake it for a model's answer. */
export const OFFLINE_LABEL = '[Offline assistant: built-in rules, no AI model]';

const LABEL_NAMES: Readonly<Record<string, string>> = {
  ideaSummary: 'the idea',
  targetUsers: 'target users',
  problem: 'the problem',
  solution: 'the solution',
  monetization: 'monetization',
  competitors: 'competitors',
  differentiation: 'differentiation',
  platform: 'platform',
};

/** The built-in assistant: works with no network, for test keys always and for live keys without `LLM_BASE_URL`. */
export class OfflineAssistant implements AssistantProvider {
  async turn(input: TurnInput): Promise<TurnResult> {
    const message = input.history.at(-1)?.content ?? '';
    const update = extractFields(message, input.anamnesis.ideaSummary.trim() !== '');
    const after = mergeAnamnesis(input.anamnesis, update);
    const gaps = assessGaps(after);
    const learned = ANAMNESIS_FIELDS.filter((field) => JSON.stringify(after[field]) !== JSON.stringify(input.anamnesis[field]));
    const noted = learned.length > 0 ? `Noted: ${learned.map((field) => LABEL_NAMES[field]).join(', ')}.` : 'I found nothing new to note.';
    const next =
      gaps.readinessStatus === 'ready'
        ? 'The case is ready for research; start a research run when you want the report (chat never starts one).'
        : `Still missing: ${gaps.missingFields.map((field) => LABEL_NAMES[field]).join(', ')}. ${gaps.nextQuestion}`;
    return {
      reply: `${OFFLINE_LABEL} ${noted} ${next}`,
      update,
      meta: { provider: 'offline', model: null, promptTokens: null, completionTokens: null, requestId: null },
    };
  }
}
