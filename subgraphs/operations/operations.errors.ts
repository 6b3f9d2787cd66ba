import { CommonErrorCode, DomainError } from '../../contracts/errors.js';
import { OperationsErrorCode as Code } from '../../contracts/operations/errors.js';

/** Transport-free errors of the operations service, built by static factories. */
export class OperationsError extends DomainError {
  static invalidCredentials(): OperationsError {
    return new OperationsError(Code.INVALID_CREDENTIALS, 'The e-mail address or password is wrong.');
  }

  static tokenInvalid(reason = 'missing or invalid bearer token'): OperationsError {
    return new OperationsError(Code.TOKEN_INVALID, `Not signed in: ${reason}.`);
  }

  static refreshTokenInvalid(): OperationsError {
    return new OperationsError(Code.REFRESH_TOKEN_INVALID, 'The refresh token is unknown, expired or revoked.');
  }

  static refreshTokenReused(): OperationsError {
    return new OperationsError(Code.REFRESH_TOKEN_REUSED, 'This refresh token was used before; every token of its sign-in is revoked.');
  }

  static roleForbidden(operation: string): OperationsError {
    return new OperationsError(Code.ROLE_FORBIDDEN, `None of your roles may call ${operation}.`);
  }

  static organizationRequired(): OperationsError {
    return new OperationsError(Code.ORGANIZATION_REQUIRED, 'Name the organization to act in with the X-Organization-Id header.', {
      param: 'X-Organization-Id',
    });
  }

  static idempotencyKeyRequired(): OperationsError {
    return new OperationsError(Code.IDEMPOTENCY_KEY_REQUIRED, 'This operation needs an Idempotency-Key header (a UUID v4).', {
      param: 'Idempotency-Key',
    });
  }

  static idempotencyKeyInvalid(): OperationsError {
    return new OperationsError(Code.IDEMPOTENCY_KEY_INVALID, 'The Idempotency-Key header must be a UUID v4.', { param: 'Idempotency-Key' });
  }

  static idempotencyKeyReused(): OperationsError {
    return new OperationsError(Code.IDEMPOTENCY_KEY_REUSED, 'This Idempotency-Key was used with another payload.', {
      param: 'Idempotency-Key',
    });
  }

  static idempotencyKeyInFlight(): OperationsError {
    return new OperationsError(Code.IDEMPOTENCY_KEY_IN_FLIGHT, 'A request with this Idempotency-Key is still in progress.', {
      meta: { retryAfter: 1 },
    });
  }

  static slugTaken(slug: string): OperationsError {
    return new OperationsError(Code.ORGANIZATION_SLUG_TAKEN, `An organization with slug "${slug}" exists.`, { param: 'slug' });
  }

  static organizationNotFound(): OperationsError {
    return new OperationsError(Code.ORGANIZATION_NOT_FOUND, 'Organization not found.');
  }

  static emailTaken(): OperationsError {
    return new OperationsError(Code.USER_EMAIL_TAKEN, 'A user with this e-mail address exists.', { param: 'email' });
  }

  /** A value the contract's schema cannot judge alone, e.g. a cursor that names no record. */
  static invalid(field: string, message: string): OperationsError {
    return new OperationsError(CommonErrorCode.VALIDATION_FAILED, `${field}: ${message}`, { param: field, details: [{ field, message }] });
  }

  /** The same for a record that does not exist and one the caller may not see. */
  static notFound(entity: string): OperationsError {
    return new OperationsError(Code.RECORD_NOT_FOUND, `${entity} not found.`);
  }

  /** A record the input names by id that does not exist or that the caller may not see: the same 404 either way. */
  static referenceNotFound(entity: string, param: string): OperationsError {
    return new OperationsError(Code.RECORD_NOT_FOUND, `${entity} not found.`, { param });
  }

  static businessKeyTaken(entity: string, key: string): OperationsError {
    return new OperationsError(Code.BUSINESS_KEY_TAKEN, `Another active ${entity} has ${key}.`);
  }

  static restoreConflict(entity: string): OperationsError {
    return new OperationsError(
      Code.TRASH_RESTORE_UNIQUE_CONFLICT,
      `An active ${entity} holds this row's business key; it cannot be restored.`,
    );
  }

  static trashEntityUnknown(entity: string): OperationsError {
    return new OperationsError(Code.TRASH_ENTITY_UNKNOWN, `No soft-deletable entity "${entity}".`, { param: 'entity' });
  }

  static importBatchNotFound(): OperationsError {
    return new OperationsError(Code.IMPORT_BATCH_NOT_FOUND, 'No such import batch for this reference book.', { param: 'batchId' });
  }

  static importBatchExpired(): OperationsError {
    return new OperationsError(Code.IMPORT_BATCH_EXPIRED, 'The import preview expired; preview again.', { param: 'batchId' });
  }

  static importBatchCommitted(): OperationsError {
    return new OperationsError(Code.IMPORT_BATCH_COMMITTED, 'The import batch was committed already.', { param: 'batchId' });
  }

  static importBatchInvalid(errors: number): OperationsError {
    return new OperationsError(Code.IMPORT_BATCH_INVALID, `The preview found ${errors} rows with errors; fix them and preview again.`);
  }

  static stateConflict(entity: string, state: string, transition: string, from: readonly string[]): OperationsError {
    return new OperationsError(Code.STATE_CONFLICT, `${entity} is ${state}; ${transition} needs ${from.join(' or ')}.`, {
      meta: { state, allowedFrom: from },
    });
  }

  static forbidden(message: string): OperationsError {
    return new OperationsError(CommonErrorCode.FORBIDDEN, message);
  }

  static sagaNotFound(): OperationsError {
    return new OperationsError(Code.SAGA_NOT_FOUND, 'Saga not found.', { param: 'sagaId' });
  }

  static sagaAlreadyRunning(entity: string): OperationsError {
    return new OperationsError(Code.SAGA_ALREADY_RUNNING, `A saga is already running on this ${entity}.`);
  }

  static deadLetterNotFound(): OperationsError {
    return new OperationsError(Code.DEAD_LETTER_NOT_FOUND, 'No such failed job in this queue.', { param: 'jobId' });
  }

  static emailNotVerified(): OperationsError {
    return new OperationsError(
      Code.EMAIL_NOT_VERIFIED,
      'Verify your e-mail address first: follow the link we mailed you, or ask for a new one.',
    );
  }

  static accountBanned(): OperationsError {
    return new OperationsError(Code.ACCOUNT_BANNED, 'This account is banned.');
  }

  static ipNotApproved(): OperationsError {
    return new OperationsError(
      Code.IP_NOT_APPROVED,
      'Sign-ins from this address are not approved yet: we e-mailed you a link to approve it (valid 24 hours).',
    );
  }

  static botChallengeFailed(): OperationsError {
    return new OperationsError(Code.BOT_CHALLENGE_FAILED, 'The bot challenge was not passed.', {
      param: 'challenge_token',
      details: [{ field: 'challenge_token', message: 'The bot-challenge token is missing, invalid or spent.' }],
    });
  }

  static linkInvalid(): OperationsError {
    return new OperationsError(Code.LINK_INVALID, 'This link is unknown, used already or expired; ask for a new one.', { param: 'token' });
  }

  static secondFactorInvalid(triesLeft: number): OperationsError {
    return new OperationsError(Code.SECOND_FACTOR_INVALID, `The code is wrong or expired; ${triesLeft} tries left.`, {
      param: 'code',
      meta: { triesLeft },
    });
  }

  static secondFactorChallengeInvalid(): OperationsError {
    return new OperationsError(Code.SECOND_FACTOR_CHALLENGE_INVALID, 'This sign-in is no longer pending; sign in again.', {
      param: 'challenge_id',
    });
  }

  static secondFactorMethodUnavailable(method: string): OperationsError {
    return new OperationsError(Code.SECOND_FACTOR_METHOD_UNAVAILABLE, `The method "${method}" is not enabled for this account.`, {
      param: 'method',
    });
  }

  static totpCodeInvalid(): OperationsError {
    return new OperationsError(Code.TOTP_CODE_INVALID, 'The authenticator code does not match; check the app’s clock and try again.', {
      param: 'code',
      details: [{ field: 'code', message: 'does not match the authenticator secret' }],
    });
  }

  static passwordWrong(): OperationsError {
    return new OperationsError(Code.PASSWORD_WRONG, 'The current password is wrong.', {
      param: 'password',
      details: [{ field: 'password', message: 'is not the current password' }],
    });
  }

  static totpNotPending(): OperationsError {
    return new OperationsError(Code.TOTP_NOT_PENDING, 'Start the authenticator setup first.');
  }

  static attemptsLimited(retryAfter: number): OperationsError {
    return new OperationsError(Code.ATTEMPTS_LIMITED, `Too many attempts; retry after ${retryAfter} s.`, { meta: { retryAfter } });
  }

  static identityProviderUnavailable(provider: string): OperationsError {
    return new OperationsError(Code.IDENTITY_PROVIDER_UNAVAILABLE, `The identity provider "${provider}" could not be reached.`, {
      meta: { retryAfter: 30 },
    });
  }

  static identityProviderUnknown(provider: string): OperationsError {
    return new OperationsError(Code.IDENTITY_PROVIDER_UNKNOWN, `No identity provider "${provider}" is configured.`, { param: 'provider' });
  }

  static apiKeyInvalid(reason: 'unknown' | 'expired' | 'revoked' | 'disabled'): OperationsError {
    const why = reason === 'disabled' ? 'refused: its owner’s API access is off' : reason;
    return new OperationsError(Code.API_KEY_INVALID, `The API key is ${why}.`, { param: 'X-API-Key' });
  }

  static apiKeyScopeMissing(scope: string): OperationsError {
    return new OperationsError(Code.API_KEY_SCOPE_MISSING, `This operation needs an API key with the "${scope}" scope.`, {
      meta: { requiredScope: scope },
    });
  }

  static apiKeyQuotaExceeded(limit: number, retryAfter: number): OperationsError {
    return new OperationsError(
      Code.API_KEY_QUOTA_EXCEEDED,
      `The daily quota of ${limit} API-key calls is used up; it resets at midnight UTC.`,
      {
        meta: { retryAfter },
      },
    );
  }

  static apiKeyNotFound(): OperationsError {
    return new OperationsError(Code.API_KEY_NOT_FOUND, 'API key not found.', { param: 'keyId' });
  }
}
