import { EdgeErrorCode } from '../../contracts/errors.js';
import { LibraryErrorCode } from '../../contracts/library/errors.js';
import { FacadeError } from '../../edge/facade-error.js';
import type { ErrorMapper } from '../route.js';

/** `error.type` by status, in the style of OpenAI-compatible APIs the library speaks. */
const TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  502: 'upstream_error',
  503: 'service_unavailable',
};

/**
 * Library `/v1` errors: `{error:{message, type, code, param, details}}`, with
 * `errorCount` and `truncated` when `details` lists only the first problems. No `/v1`
 * operation publishes 400, so a body that is not JSON is the 422 `invalid_json`.
 */
export const libraryErrorBody: ErrorMapper = (raw) => {
  const error = raw.is(EdgeErrorCode.BAD_REQUEST) ? FacadeError.of(LibraryErrorCode.invalid_json, raw.message) : raw;
  return {
    status: error.status,
    body: {
      error: {
        message: error.message,
        type: TYPE_BY_STATUS[error.status] ?? 'api_error',
        code: error.code.toLowerCase(),
        param: error.param,
        details: error.details,
        ...error.truncation,
      },
    },
    headers: typeof error.meta.retryAfter === 'number' ? { 'Retry-After': String(error.meta.retryAfter) } : undefined,
  };
};
