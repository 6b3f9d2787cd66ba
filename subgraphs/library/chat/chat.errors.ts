import { DomainError, defineErrorCodes } from '../../shared/errors.js';

/** Codes of chat completions (lower_snake, as on the `/v1` wire); bad requests are `invalid_parameter`. */
export const ChatErrorCode = defineErrorCodes({
  upstream_error: {
    status: 502,
    description: 'The language model upstream (`LLM_BASE_URL`) failed, refused the request or sent a malformed answer.',
  },
  upstream_timeout: { status: 502, description: 'The language model upstream stayed silent longer than `LLM_TIMEOUT_MS`.' },
});

/** Transport-free chat errors, built by static factories. */
export class ChatError extends DomainError {
  /** `reason` is safe for the wire (a status, "malformed answer"); the cause is only logged. */
  static upstreamFailed(reason: string, cause?: unknown): ChatError {
    return new ChatError(ChatErrorCode.upstream_error, `the language model upstream failed: ${reason}`, { cause });
  }

  static upstreamTimeout(timeoutMs: number): ChatError {
    return new ChatError(ChatErrorCode.upstream_timeout, `the language model upstream did not answer within ${timeoutMs} ms`);
  }
}
