import { DomainError, defineErrorCodes } from '../../shared/errors.js';
import type { RateLimitState } from './rate-limit-state.js';

/**
 * Codes of keys, limits and admin (lower_snake, as they appear on the wire). Key
 * failures are all 401 — the only status the seed publishes for them — each with its
 * own code; both limits are 429 with `Retry-After`.
 */
export const AccountsErrorCode = defineErrorCodes({
  missing_api_key: { status: 401, description: 'No `Authorization: Bearer <key>` header was sent.' },
  invalid_api_key: { status: 401, description: 'The bearer key is not one this service issued.' },
  key_suspended: { status: 401, description: 'The key is suspended by an admin; it works again once reactivated.' },
  key_revoked: { status: 401, description: 'The key is revoked for good; register or ask for a new one.' },
  rate_limit_exceeded: { status: 429, description: 'The per-minute call limit of the key is used up; retry after `Retry-After` seconds.' },
  quota_exceeded: { status: 429, description: 'The daily quota of the key is used up; it resets at UTC midnight.' },
  registration_limit_exceeded: {
    status: 429,
    description: 'Too many keys registered today for this e-mail address (3) or client address (5); resets at UTC midnight.',
  },
  invalid_email: { status: 422, description: 'Registration needs a valid e-mail address.' },
  invalid_org: { status: 422, description: 'The organisation name must be a string of at most 200 characters.' },
  admin_unauthorized: { status: 401, description: 'The `x-admin-token` header is missing or wrong, or admin is disabled.' },
  invalid_admin_input: { status: 422, description: 'An admin request failed validation; `detail` lists each problem.' },
});

/** One problem with admin input, in the shape FastAPI/pydantic clients parse. */
export interface ValidationIssue {
  readonly loc: ReadonlyArray<string | number>;
  readonly msg: string;
  readonly type: string;
  readonly input: unknown;
  readonly ctx: Readonly<Record<string, unknown>>;
}

/** Transport-free errors of keys, limits and admin, built by static factories. */
export class AccountsError extends DomainError {
  static missingKey(): AccountsError {
    return new AccountsError(AccountsErrorCode.missing_api_key, 'Missing API key: send Authorization: Bearer <key>.');
  }

  static invalidKey(): AccountsError {
    return new AccountsError(AccountsErrorCode.invalid_api_key, 'Invalid API key.');
  }

  static keySuspended(): AccountsError {
    return new AccountsError(AccountsErrorCode.key_suspended, 'This API key is suspended.');
  }

  static keyRevoked(): AccountsError {
    return new AccountsError(AccountsErrorCode.key_revoked, 'This API key is revoked.');
  }

  static rateLimited(state: RateLimitState, retryAfter: number): AccountsError {
    return new AccountsError(
      AccountsErrorCode.rate_limit_exceeded,
      `Rate limit exceeded: ${state.minute.limit} calls per minute. Retry after ${retryAfter} s.`,
      { meta: { retryAfter } },
    );
  }

  static quotaExceeded(state: RateLimitState, retryAfter: number): AccountsError {
    return new AccountsError(
      AccountsErrorCode.quota_exceeded,
      `Daily quota exceeded: ${state.day.limit} calls per UTC day. Retry after ${retryAfter} s.`,
      { meta: { retryAfter } },
    );
  }

  static registrationLimited(scope: 'email' | 'ip', limit: number, retryAfter: number): AccountsError {
    const what = scope === 'email' ? 'this e-mail address' : 'this client address';
    return new AccountsError(
      AccountsErrorCode.registration_limit_exceeded,
      `Too many keys registered today for ${what} (at most ${limit} per UTC day).`,
      { param: scope === 'email' ? 'email' : null, meta: { retryAfter } },
    );
  }

  static invalidEmail(reason: string): AccountsError {
    return new AccountsError(AccountsErrorCode.invalid_email, `email: ${reason}`, {
      param: 'email',
      details: [{ field: 'email', message: reason }],
    });
  }

  static invalidOrg(reason: string): AccountsError {
    return new AccountsError(AccountsErrorCode.invalid_org, `org: ${reason}`, {
      param: 'org',
      details: [{ field: 'org', message: reason }],
    });
  }

  /** Says nothing about why: missing, wrong and disabled look the same. */
  static adminUnauthorized(): AccountsError {
    return new AccountsError(AccountsErrorCode.admin_unauthorized, 'Not authenticated');
  }

  static invalidAdminInput(issues: readonly ValidationIssue[]): AccountsError {
    const first = issues[0];
    return new AccountsError(AccountsErrorCode.invalid_admin_input, first ? `${first.loc.join('.')}: ${first.msg}` : 'invalid input', {
      param: first ? String(first.loc.at(-1)) : null,
      details: issues.map((issue) => ({ field: issue.loc.slice(1).join('.') || String(issue.loc[0]), message: issue.msg })),
      meta: { validation: issues },
    });
  }
}
