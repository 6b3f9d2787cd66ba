import { z } from 'zod';
import type { Logger } from '../../../runtime/logger.js';

/**
 * One chat completion with structured output from any OpenAI-compatible upstream
 * (`LLM_BASE_URL`): `response_format` `json_schema` (strict), the answer parsed and
 * checked against the same zod schema. Provider facts (model, token counts, request id)
 * are returned for storage only; no view ever shows them.
 */

export interface LlmSettings {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/** What is kept about the call that produced a reply or a report (stored, never shown). */
export interface ProviderMeta {
  readonly provider: string;
  readonly model: string | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  readonly requestId: string | null;
}

export interface StructuredRequest<T extends z.ZodType> {
  /** The schema's name for the upstream (`json_schema.name`). */
  readonly name: string;
  /** What the answer must be: sent as its JSON Schema, and checked against on the way back. */
  readonly schema: T;
  readonly messages: ReadonlyArray<{ readonly role: 'system' | 'user' | 'assistant'; readonly content: string }>;
}

interface Completion {
  id?: unknown;
  model?: unknown;
  choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/** The upstream failed or answered something unusable; the job that called it retries. */
export class LlmFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`LLM upstream: ${message}`, options);
    this.name = 'LlmFailure';
  }
}

/** The JSON Schema of the answer's zod schema, as the upstream takes it (without `$schema`). */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _schema, ...json } = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
  return json;
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export class StructuredCompletion {
  constructor(private readonly settings: LlmSettings) {}

  async complete<T extends z.ZodType>(request: StructuredRequest<T>): Promise<{ value: z.output<T>; meta: ProviderMeta }> {
    const response = await fetch(`${this.settings.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: this.settings.model,
        messages: request.messages,
        response_format: { type: 'json_schema', json_schema: { name: request.name, strict: true, schema: jsonSchemaOf(request.schema) } },
      }),
      signal: AbortSignal.timeout(this.settings.timeoutMs),
    }).catch((error: unknown) => {
      throw new LlmFailure('no answer', { cause: error });
    });
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      this.settings.logger.warn({ status: response.status, body: text.slice(0, 300) }, 'LLM upstream refused a structured completion');
      throw new LlmFailure(`status ${response.status}`);
    }
    const completion = (await response.json().catch((error: unknown) => {
      throw new LlmFailure('a body that is not JSON', { cause: error });
    })) as Completion;
    const content = completion.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new LlmFailure('no message content (refused?)');
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch (error) {
      throw new LlmFailure('content that is not JSON', { cause: error });
    }
    const checked = request.schema.safeParse(parsed);
    if (!checked.success) throw new LlmFailure(`content off the schema: ${checked.error.issues[0]?.message ?? ''}`);
    return {
      value: checked.data,
      meta: {
        provider: 'openai-compatible',
        model: typeof completion.model === 'string' ? completion.model : this.settings.model,
        promptTokens: count(completion.usage?.prompt_tokens),
        completionTokens: count(completion.usage?.completion_tokens),
        requestId: typeof completion.id === 'string' ? completion.id : response.headers.get('x-request-id'),
      },
    };
  }
}
