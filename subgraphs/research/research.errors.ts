import { CommonErrorCode, DomainError } from '../../contracts/errors.js';
import { ResearchErrorCode } from '../../contracts/research/errors.js';

/** Transport-free errors of the research service, built by static factories. */
export class ResearchError extends DomainError {
  /** Research keys are optional wherever they are accepted: `required` is never declared. */
  static idempotencyKeyRequired(): ResearchError {
    return ResearchError.idempotencyKeyInvalid();
  }

  static idempotencyKeyInvalid(): ResearchError {
    return new ResearchError(ResearchErrorCode.idempotency_key_invalid, 'The Idempotency-Key header must be a UUID v4.', {
      param: 'Idempotency-Key',
    });
  }

  static idempotencyKeyReused(): ResearchError {
    return new ResearchError(ResearchErrorCode.idempotency_key_reused, 'This Idempotency-Key was used with another request body.', {
      param: 'Idempotency-Key',
    });
  }

  static idempotencyKeyInFlight(): ResearchError {
    return new ResearchError(ResearchErrorCode.idempotency_key_in_flight, 'A request with this Idempotency-Key is still in progress.', {
      meta: { retryAfter: 1 },
    });
  }

  static missingKey(): ResearchError {
    return new ResearchError(ResearchErrorCode.missing_api_key, 'Missing API key: send Authorization: Bearer <key>.');
  }

  static invalidKey(): ResearchError {
    return new ResearchError(ResearchErrorCode.invalid_api_key, 'Invalid API key.');
  }

  static keyRevoked(): ResearchError {
    return new ResearchError(ResearchErrorCode.api_key_revoked, 'This API key was revoked or rotated.');
  }

  static insufficientScope(scope: string): ResearchError {
    return new ResearchError(ResearchErrorCode.insufficient_scope, `This API key lacks the scope ${scope}.`, {
      meta: { requiredScope: scope },
    });
  }

  /** No access token on a workspace route; `resourceMetadata` is the RFC 9728 document that says where to get one. */
  static missingAccessToken(resourceMetadata: string): ResearchError {
    return new ResearchError(ResearchErrorCode.missing_access_token, 'Sign in: send Authorization: Bearer <access token>.', {
      meta: { resourceMetadata },
    });
  }

  static invalidAccessToken(resourceMetadata: string, reason: string): ResearchError {
    return new ResearchError(ResearchErrorCode.invalid_access_token, `Invalid access token: ${reason}.`, {
      meta: { resourceMetadata, bearerError: 'invalid_token' },
    });
  }

  static identityProviderUnavailable(cause: unknown): ResearchError {
    return new ResearchError(ResearchErrorCode.identity_provider_unavailable, 'The identity provider cannot be reached; retry shortly.', {
      meta: { retryAfter: 5 },
      cause,
    });
  }

  static invalidAccountToken(reason: string): ResearchError {
    return new ResearchError(ResearchErrorCode.invalid_account_token, `Sign in to Qantara: ${reason}.`);
  }

  static notYourWorkspace(): ResearchError {
    return new ResearchError(ResearchErrorCode.not_your_workspace, 'This workspace belongs to another account.');
  }

  static adminUnauthorized(): ResearchError {
    return new ResearchError(ResearchErrorCode.admin_unauthorized, 'Not authenticated');
  }

  static insufficientCredits(creditBalance: number, requiredCredits: number): ResearchError {
    return new ResearchError(
      ResearchErrorCode.insufficient_credits,
      `Not enough credits: this needs ${requiredCredits}, the workspace holds ${creditBalance}. Top up with POST /v1/billing/top-ups.`,
      { meta: { creditBalance, requiredCredits } },
    );
  }

  static workspaceNotFound(): ResearchError {
    return new ResearchError(ResearchErrorCode.workspace_not_found, 'No such workspace.');
  }

  static apiKeyNotFound(): ResearchError {
    return new ResearchError(ResearchErrorCode.api_key_not_found, 'No such key in this workspace.');
  }

  static apiKeyAlreadyRevoked(): ResearchError {
    return new ResearchError(ResearchErrorCode.api_key_already_revoked, 'This key is revoked already.');
  }

  /** A field the contract's schema accepts but the service cannot use (422, naming it). */
  static invalid(field: string, message: string): ResearchError {
    return new ResearchError(CommonErrorCode.VALIDATION_FAILED, `${field}: ${message}`, { param: field, details: [{ field, message }] });
  }

  static threadNotFound(): ResearchError {
    return new ResearchError(ResearchErrorCode.thread_not_found, 'No such case in this workspace.');
  }

  static runNotFound(): ResearchError {
    return new ResearchError(ResearchErrorCode.run_not_found, 'No such research run in this case.');
  }

  static threadNotReady(): ResearchError {
    return new ResearchError(ResearchErrorCode.thread_not_ready, 'Describe the idea first: research needs at least an idea summary.');
  }

  static paymentsUnavailable(what: string): ResearchError {
    return new ResearchError(ResearchErrorCode.payments_unavailable, `Payments are not configured here: ${what}.`);
  }

  static paymentProviderFailed(cause: unknown): ResearchError {
    return new ResearchError(ResearchErrorCode.payment_provider_failed, 'The payment provider did not create the checkout session.', {
      cause,
    });
  }

  static webhookSignatureInvalid(): ResearchError {
    return new ResearchError(ResearchErrorCode.webhook_signature_invalid, 'The Stripe-Signature header does not match the body.');
  }
}
