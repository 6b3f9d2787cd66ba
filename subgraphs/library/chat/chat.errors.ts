import { DomainError } from '../../../contracts/errors.js';
import { LibraryErrorCode } from '../../../contracts/library/errors.js';

/** Transport-free chat errors, built by static factories. */
export class ChatError extends DomainError {
  /** `reason` is safe for the wire (a status, "malformed answer"); the cause is only logged. */
  static upstreamFailed(reason: string, cause?: unknown): ChatError {
    return new ChatError(LibraryErrorCode.upstream_error, `the language model upstream failed: ${reason}`, { cause });
  }

  static upstreamTimeout(timeoutMs: number): ChatError {
    return new ChatError(LibraryErrorCode.upstream_timeout, `the language model upstream did not answer within ${timeoutMs} ms`);
  }
}
