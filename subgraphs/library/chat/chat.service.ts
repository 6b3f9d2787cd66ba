import { randomBytes } from 'node:crypto';
import type { SubgraphContext } from '../../shared/context.js';
import { estimateUsage, type Answerer } from './answerer.js';
import { collectCompletion, type ChatCompletion, type ChatEvent } from './chat-events.js';
import type { ChatModel } from './chat-models.js';
import { parseChatRequest, type ChatInput } from './chat-request.js';
import { NotFoundAnswerer } from './extractive-answerer.js';
import type { ChatGrounding } from './grounding.js';

const notFound = new NotFoundAnswerer();

/** Never aborted: a GraphQL call has no client connection to watch (the upstream timeout still applies). */
const UNSTOPPABLE = new AbortController().signal;

function completionId(): string {
  return `chatcmpl-${randomBytes(12).toString('hex')}`;
}

/**
 * Chat over library texts: validates the request, grounds it in retrieved passages and
 * has the configured answerer write the answer from them alone, as a sequence of
 * events. The caller (resolver or stream) has admitted the key first.
 */
export class ChatService {
  constructor(
    private readonly grounding: ChatGrounding,
    private readonly answerer: Answerer,
    private readonly models: readonly ChatModel[],
    private readonly now: () => number = Date.now,
  ) {}

  listModels(): readonly ChatModel[] {
    return this.models;
  }

  /**
   * The events of one completion. Everything that can refuse the request (validation,
   * retrieval, the upstream accepting it) happens before `start` is yielded.
   */
  async *stream(ctx: SubgraphContext, planLimit: number, input: ChatInput, signal: AbortSignal): AsyncGenerator<ChatEvent> {
    const request = parseChatRequest(
      input,
      this.models.map((model) => model.id),
    );
    const grounding = await this.grounding.find(ctx.em, request.messages, planLimit);
    const answerer = grounding.sources.length > 0 ? this.answerer : notFound;
    const pieces = await answerer.start({ request, grounding }, signal);
    yield {
      type: 'start',
      id: completionId(),
      created: Math.floor(this.now() / 1000),
      model: request.model,
      hits: grounding.hits,
      ai: answerer.ai,
      sources: grounding.sources,
    };
    let answer = '';
    for await (const piece of pieces) {
      if (piece.kind === 'text') {
        answer += piece.text;
        yield { type: 'delta', content: piece.text };
        continue;
      }
      const usage =
        piece.usage ??
        estimateUsage(
          request.messages.map((message) => message.content),
          answer,
        );
      yield { type: 'finish', finishReason: piece.finishReason, usage };
      return;
    }
    yield {
      type: 'finish',
      finishReason: 'stop',
      usage: estimateUsage(
        request.messages.map((message) => message.content),
        answer,
      ),
    };
  }

  /** The whole completion at once (the GraphQL mutation). */
  complete(ctx: SubgraphContext, planLimit: number, input: ChatInput): Promise<ChatCompletion> {
    return collectCompletion(this.stream(ctx, planLimit, input, UNSTOPPABLE));
  }
}
