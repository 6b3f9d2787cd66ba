import { estimateUsage, type Answerer, type AnswerPiece, type GroundedQuestion } from './answerer.js';
import type { FinishReason } from './chat-events.js';
import { buildPrompt } from './chat-prompt.js';
import type { LlmClient, UpstreamDelta, UpstreamMessage } from './llm-client.js';

const FINISH_REASONS: readonly FinishReason[] = ['stop', 'length', 'content_filter'];

/** The upstream's finish reason where the format knows it; tool calls and the unknown read as `stop`. */
function finishReasonOf(reason: string | null): FinishReason {
  return FINISH_REASONS.find((known) => known === reason) ?? 'stop';
}

async function* pieces(deltas: AsyncIterable<UpstreamDelta>, prompt: readonly UpstreamMessage[]): AsyncGenerator<AnswerPiece> {
  let finish: string | null = null;
  let usage: UpstreamDelta['usage'] = null;
  let answer = '';
  for await (const delta of deltas) {
    if (delta.content) {
      answer += delta.content;
      yield { kind: 'text', text: delta.content };
    }
    finish = delta.finishReason ?? finish;
    usage = delta.usage ?? usage;
  }
  const estimated = () =>
    estimateUsage(
      prompt.map((message) => message.content),
      answer,
    );
  yield { kind: 'end', finishReason: finishReasonOf(finish), usage: usage ?? estimated() };
}

/** Answers with an OpenAI-compatible LLM given the passages and the grounding instruction; tokens pass through as they arrive. */
export class LlmAnswerer implements Answerer {
  readonly ai = true;

  constructor(private readonly client: LlmClient) {}

  async start(question: GroundedQuestion, signal: AbortSignal): Promise<AsyncIterable<AnswerPiece>> {
    const prompt = buildPrompt(question);
    const deltas = await this.client.stream(prompt, question.request.sampling, signal);
    return pieces(deltas, prompt);
  }
}
