import { defineErrorCodes } from '../errors.js';

/**
 * Codes of the library (lower_snake, as they appear on the `/v1` wire). Key failures
 * are all 401 — the only status the seed publishes for them — each with its own code;
 * both limits are 429 with `Retry-After`.
 */
export const LibraryErrorCode = defineErrorCodes('library', {
  invalid_parameter: { status: 422, description: 'A parameter is missing or outside its documented range; `details` lists each.' },
  invalid_json: { status: 422, description: 'The request body is not valid JSON (no `/v1` operation publishes 400).' },
  search_unavailable: { status: 502, description: 'The search engine failed or did not answer.' },
  index_unavailable: { status: 503, description: '`/healthz`: the search engine is down.' },
  service_unavailable: { status: 503, description: '`/healthz`: the database is down.' },
  invalid_import: { status: 422, description: 'An imported file is malformed; the error names the line and field.' },
  missing_api_key: { status: 401, description: 'No `Authorization: Bearer <key>` header was sent.' },
  invalid_api_key: { status: 401, description: 'The bearer key is not one this service issued.' },
  key_suspended: { status: 401, description: 'The key is suspended by an admin; it works again once reactivated.' },
  key_revoked: { status: 401, description: 'The key is revoked for good; register or ask for a new one.' },
  rate_limit_exceeded: {
    status: 429,
    description:
      'The per-minute call limit of the key (on open routes, of the client address) is used up; retry after `Retry-After` seconds.',
  },
  quota_exceeded: {
    status: 429,
    description: 'The daily quota of the key (on open routes, of the client address) is used up; it resets at UTC midnight.',
  },
  registration_limit_exceeded: {
    status: 429,
    description: 'Too many keys registered today for this e-mail address (3) or client address (5); resets at UTC midnight.',
  },
  invalid_email: { status: 422, description: 'Registration needs a valid e-mail address.' },
  invalid_org: { status: 422, description: 'The organisation name must be a string of at most 200 characters.' },
  admin_unauthorized: { status: 401, description: 'The `x-admin-token` header is missing or wrong, or admin is disabled.' },
  invalid_account_token: {
    status: 401,
    description:
      '`/v1/me/keys` and `User.libraryKeys` need a signed-in Qantara account’s access token (`POST /api/v1/iam/login`) as `Authorization: Bearer`; none was sent, or it is malformed, expired or not ours.',
  },
  account_unavailable: {
    status: 503,
    description: 'The keys that sign account tokens could not be fetched to check the token; retry shortly.',
  },
  not_your_keys: { status: 403, description: 'An account’s library keys are shown to that account (and the platform super-admin) only.' },
  invalid_admin_input: { status: 422, description: 'An admin request failed validation; `detail` lists each problem.' },
  upstream_error: {
    status: 502,
    description: 'The language model upstream (`LLM_BASE_URL`) failed, refused the request or sent a malformed answer.',
  },
  upstream_timeout: { status: 502, description: 'The language model upstream stayed silent longer than `LLM_TIMEOUT_MS`.' },
});
