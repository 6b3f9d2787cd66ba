import { DomainError } from '../../../contracts/errors.js';
import { WebhookErrorCode as Code } from '../../../contracts/operations/webhooks/errors.js';

/** Transport-free errors of the webhooks module. */
export class WebhookError extends DomainError {
  static endpointLimitReached(limit: number): WebhookError {
    return new WebhookError(Code.WEBHOOK_ENDPOINT_LIMIT_REACHED, `An organization may have at most ${limit} webhook endpoints.`);
  }
}
