import { CommonErrorCode, DomainError } from '../../../contracts/errors.js';
import { WebhookErrorCode as Code } from '../../../contracts/operations/webhooks/errors.js';

/** Transport-free errors of the webhooks module. */
export class WebhookError extends DomainError {
  static endpointLimitReached(limit: number): WebhookError {
    return new WebhookError(Code.WEBHOOK_ENDPOINT_LIMIT_REACHED, `An organization may have at most ${limit} webhook endpoints.`);
  }

  /** A target on a loopback, private or other internal address (`WEBHOOK_ALLOW_PRIVATE` is off). */
  static targetRefused(reason: string): WebhookError {
    const message = `must not target an internal address: ${reason}`;
    return new WebhookError(CommonErrorCode.VALIDATION_FAILED, `url: ${message}`, { param: 'url', details: [{ field: 'url', message }] });
  }
}
