import type { Logger } from '../../../runtime/logger.js';
import type { ChatUsage } from './chat-events.js';
import type { SamplingOptions } from './chat-request.js';
import { ChatError } from './chat.errors.js';
import { eventData } from './server-sent-events.js';

export interface LlmClientOptions {
  /** OpenAI-compatible base URL, e.g. `https://api.openai.com/v1`; requests go to `<base>/chat/completions`. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
  /** Longest silence allowed: before the first byte, and between chunks. */
  readonly timeoutMs: number;
  readonly logger: Logger;
}

export interface UpstreamMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** One chunk of the upstream's answer, reduced to what an answer needs. */
export interface UpstreamDelta {
  readonly content: string;
  readonly finishReason: string | null;
  readonly usage: ChatUsage | null;
}

interface WireChunk {
  error?: { message?: string };
  choices?: Array<{ delta?: { content?: unknown }; message?: { content?: unknown }; finish_reason?: unknown }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
}

/** Aborts its signal when nothing happened for `ms`; `arm()` again on every sign of life. */
class Silence {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ms: number) {
    this.arm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(new Error('upstream silent')), this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

function usageOf(usage: WireChunk['usage']): ChatUsage | null {
  if (!usage || typeof usage.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number') return null;
  const total = typeof usage.total_tokens === 'number' ? usage.total_tokens : usage.prompt_tokens + usage.completion_tokens;
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, totalTokens: total };
}

/**
 * A client of any OpenAI-compatible chat-completions upstream, always streaming
 * (`stream: true`, usage included), so tokens pass through as they arrive. The caller's
 * signal cancels the upstream request; silence past the timeout fails it with a 502.
 */
export class LlmClient {
  constructor(private readonly options: LlmClientOptions) {}

  get model(): string {
    return this.options.model;
  }

  /** Resolves once the upstream accepted the request (status 2xx), with its chunks to come. */
  async stream(
    messages: readonly UpstreamMessage[],
    sampling: SamplingOptions,
    signal: AbortSignal,
  ): Promise<AsyncIterable<UpstreamDelta>> {
    const silence = new Silence(this.options.timeoutMs);
    const body = {
      model: this.options.model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      temperature: sampling.temperature,
      top_p: sampling.topP,
      max_tokens: sampling.maxTokens,
      stop: sampling.stop,
      seed: sampling.seed,
      presence_penalty: sampling.presencePenalty,
      frequency_penalty: sampling.frequencyPenalty,
    };
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.any([signal, silence.signal]),
      });
    } catch (error) {
      silence.stop();
      throw this.failure(error, silence, signal);
    }
    if (!response.ok || !response.body) {
      silence.stop();
      const text = await response.text().catch(() => '');
      this.options.logger.warn({ status: response.status, body: text.slice(0, 500) }, 'LLM upstream refused the request');
      throw ChatError.upstreamFailed(`it answered ${response.status}`);
    }
    return this.deltas(response, silence, signal);
  }

  private failure(error: unknown, silence: Silence, signal: AbortSignal): unknown {
    // The caller left: nobody reads this error, the request only has to stop.
    if (signal.aborted) return error;
    if (silence.expired) return ChatError.upstreamTimeout(this.options.timeoutMs);
    if (error instanceof ChatError) return error;
    this.options.logger.warn({ err: error }, 'LLM upstream failed');
    return ChatError.upstreamFailed('no usable answer', error);
  }

  private async *deltas(response: Response, silence: Silence, signal: AbortSignal): AsyncGenerator<UpstreamDelta> {
    try {
      // Some compatible servers answer a whole completion even when asked to stream.
      if ((response.headers.get('content-type') ?? '').includes('application/json')) {
        yield this.parse((await response.json()) as WireChunk);
        return;
      }
      for await (const data of eventData(response.body!)) {
        silence.arm();
        if (data === '[DONE]') return;
        let chunk: WireChunk;
        try {
          chunk = JSON.parse(data) as WireChunk;
        } catch (error) {
          throw ChatError.upstreamFailed('a malformed chunk', error);
        }
        yield this.parse(chunk);
      }
    } catch (error) {
      throw this.failure(error, silence, signal);
    } finally {
      silence.stop();
    }
  }

  private parse(chunk: WireChunk): UpstreamDelta {
    if (chunk.error) {
      this.options.logger.warn({ upstreamError: chunk.error }, 'LLM upstream reported an error');
      throw ChatError.upstreamFailed('it reported an error');
    }
    const choice = chunk.choices?.[0];
    const content = choice?.delta?.content ?? choice?.message?.content;
    const finishReason = choice?.finish_reason;
    return {
      content: typeof content === 'string' ? content : '',
      finishReason: typeof finishReason === 'string' ? finishReason : null,
      usage: usageOf(chunk.usage),
    };
  }
}
