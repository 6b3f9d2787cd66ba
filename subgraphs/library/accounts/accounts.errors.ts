import { DomainError } from '../../../contracts/errors.js';
import { LibraryErrorCode } from '../../../contracts/library/errors.js';
import type { RateLimitState } from './rate-limit-state.js';

/** Transport-free errors of keys, limits and admin, built by static factories. */
export class AccountsError extends DomainError {
  static missingKey(): AccountsError {
    return new AccountsError(LibraryErrorCode.missing_api_key, 'Missing API key: send Authorization: Bearer <key>.');
  }

  static invalidKey(): AccountsError {
    return new AccountsError(LibraryErrorCode.invalid_api_key, 'Invalid API key.');
  }

  static keySuspended(): AccountsError {
    return new AccountsError(LibraryErrorCode.key_suspended, 'This API key is suspended.');
  }

  static keyRevoked(): AccountsError {
    return new AccountsError(LibraryErrorCode.key_revoked, 'This API key is revoked.');
  }

  static rateLimited(state: RateLimitState, retryAfter: number): AccountsError {
    return new AccountsError(
      LibraryErrorCode.rate_limit_exceeded,
      `Rate limit exceeded: ${state.minute.limit} calls per minute. Retry after ${retryAfter} s.`,
      { meta: { retryAfter } },
    );
  }

  static quotaExceeded(state: RateLimitState, retryAfter: number): AccountsError {
    return new AccountsError(
      LibraryErrorCode.quota_exceeded,
      `Daily quota exceeded: ${state.day.limit} calls per UTC day. Retry after ${retryAfter} s.`,
      { meta: { retryAfter } },
    );
  }

  static registrationLimited(scope: 'email' | 'ip', limit: number, retryAfter: number): AccountsError {
    const what = scope === 'email' ? 'this e-mail address' : 'this client address';
    return new AccountsError(
      LibraryErrorCode.registration_limit_exceeded,
      `Too many keys registered today for ${what} (at most ${limit} per UTC day).`,
      { param: scope === 'email' ? 'email' : null, meta: { retryAfter } },
    );
  }

  static invalidEmail(reason: string): AccountsError {
    return new AccountsError(LibraryErrorCode.invalid_email, `email: ${reason}`, {
      param: 'email',
      details: [{ field: 'email', message: reason }],
    });
  }

  static invalidOrg(reason: string): AccountsError {
    return new AccountsError(LibraryErrorCode.invalid_org, `org: ${reason}`, {
      param: 'org',
      details: [{ field: 'org', message: reason }],
    });
  }

  static invalidAccountToken(reason: string): AccountsError {
    return new AccountsError(LibraryErrorCode.invalid_account_token, `Sign in to Qantara: ${reason}.`);
  }

  static accountUnavailable(cause: unknown): AccountsError {
    return new AccountsError(LibraryErrorCode.account_unavailable, 'The account could not be checked; retry shortly.', {
      meta: { retryAfter: 5 },
      cause,
    });
  }

  static notYourKeys(): AccountsError {
    return new AccountsError(LibraryErrorCode.not_your_keys, 'These keys belong to another account.');
  }

  /** Says nothing about why: missing, wrong and disabled look the same. */
  static adminUnauthorized(): AccountsError {
    return new AccountsError(LibraryErrorCode.admin_unauthorized, 'Not authenticated');
  }
}
