import { z } from 'zod';
import { Anamnesis } from '../../../contracts/research/case-types.js';
import type { StructuredCompletion } from '../llm/structured-completion.js';
import type { AssistantProvider, TurnInput, TurnResult } from './assistant-provider.js';

/** The reply and the whole anamnesis as the model sees it after the turn (strict structured output). */
const TurnOutput = z.object({
  reply: z.string().min(1).max(4000),
  anamnesis: z.object({
    ideaSummary: z.string(),
    targetUsers: z.string().nullable(),
    problem: z.string().nullable(),
    solution: z.string().nullable(),
    monetization: z.string().nullable(),
    competitors: z.array(z.string()),
    differentiation: z.string().nullable(),
    platform: z.string().nullable(),
  }),
});

const SYSTEM = `You interview a founder about a startup idea so that market research can run on it.
Keep the anamnesis (a structured summary) up to date from everything the user said: ${Object.keys(Anamnesis.shape).join(', ')}.
Never invent facts; leave a field null (or empty) until the user gives it. Reply briefly in the user's language:
acknowledge what you learned and ask for the most important missing item. Never start research yourself; when nothing
required is missing (idea, target users, problem, solution, monetization), say that research can be started.`;

/** Any OpenAI-compatible LLM, asked for the reply and the updated anamnesis in one structured answer. */
export class LlmAssistant implements AssistantProvider {
  constructor(private readonly llm: StructuredCompletion) {}

  async turn(input: TurnInput): Promise<TurnResult> {
    const { value, meta } = await this.llm.complete({
      name: 'assistant_turn',
      schema: TurnOutput,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'system', content: `Current anamnesis: ${JSON.stringify(input.anamnesis)}` },
        ...input.history.map((message) => ({ role: message.role, content: message.content })),
      ],
    });
    return { reply: value.reply, update: value.anamnesis, meta };
  }
}
