import { defineErrorCodes } from '../errors.js';

/**
 * Codes of the research service. They are lower snake_case on the wire (`code` of
 * `{error, code}`); the 402 is the seed's `{error, creditBalance, requiredCredits}`.
 */
export const ResearchErrorCode = defineErrorCodes('research', {
  missing_api_key: { status: 401, description: 'No key was sent: `Authorization: Bearer rk_live_…` (or `rk_test_…`).' },
  invalid_api_key: { status: 401, description: 'The key is malformed or unknown.' },
  api_key_revoked: { status: 401, description: 'The key was revoked or replaced by a rotation; it stopped working at once.' },
  insufficient_scope: { status: 403, description: 'The key lacks a scope the operation needs; `requiredScope` names it.' },
  missing_access_token: {
    status: 401,
    description:
      'A workspace route (`/api/chat/…`) was called without `Authorization: Bearer <access token>` of the identity provider; `WWW-Authenticate` points to the protected resource metadata.',
  },
  invalid_access_token: {
    status: 401,
    description:
      'The access token is malformed, expired, not for this API (`aud`), or from an issuer this deployment does not trust; `WWW-Authenticate` says `invalid_token`.',
  },
  identity_provider_unavailable: {
    status: 503,
    description: 'The identity provider’s keys (its discovery document or JWKS) could not be fetched to check the access token.',
  },
  admin_unauthorized: { status: 401, description: 'The `x-admin-token` header is missing or wrong, or admin is disabled.' },
  invalid_account_token: {
    status: 401,
    description:
      'A field of the Qantara account (`User.researchWorkspace`) needs its sign-in access token (`POST /api/v1/iam/login`) as `Authorization: Bearer`; none was sent, or it is malformed, expired or not ours.',
  },
  not_your_workspace: { status: 403, description: 'A person’s workspace is shown to them (and the platform super-admin) only.' },
  insufficient_credits: {
    status: 402,
    description: 'The workspace holds fewer credits than the operation needs: body `{error, creditBalance, requiredCredits}`.',
  },
  workspace_not_found: { status: 404, description: 'No workspace with this id.' },
  api_key_not_found: { status: 404, description: 'No key with this id in the caller’s workspace.' },
  thread_not_found: { status: 404, description: 'No case with this id in the caller’s workspace (and key mode).' },
  run_not_found: { status: 404, description: 'No research run with this id in the case.' },
  api_key_already_revoked: { status: 409, description: 'The key is revoked already; a revoked key cannot be rotated or revoked again.' },
  thread_not_ready: {
    status: 409,
    description: 'Research needs at least an idea in the case’s anamnesis; describe the idea first.',
  },
  payments_unavailable: {
    status: 503,
    description: 'Live top-ups need `STRIPE_SECRET_KEY`, and webhooks `STRIPE_WEBHOOK_SECRET`; this installation has none.',
  },
  payment_provider_failed: { status: 502, description: 'The payment provider refused or did not answer the checkout request.' },
  idempotency_key_invalid: { status: 400, description: 'The `Idempotency-Key` header must be a UUID v4.' },
  idempotency_key_reused: {
    status: 422,
    description: 'This `Idempotency-Key` was used with another request body within 24 hours; send a new key for a new request.',
  },
  idempotency_key_in_flight: {
    status: 409,
    description: 'A request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds to get its answer.',
  },
  webhook_signature_invalid: { status: 400, description: 'The `Stripe-Signature` header does not match the raw body.' },
});
