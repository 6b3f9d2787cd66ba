import type { ErrorMapper } from '../route.js';

/**
 * The challenge of a workspace route's 401 (RFC 6750 §3, RFC 9728 §5.1): where the protected
 * resource metadata is, and `invalid_token` when a token was sent but refused. The reason
 * stays in the body: `error_description` allows only a subset of ASCII.
 */
function bearerChallenge(meta: Readonly<Record<string, unknown>>): Record<string, string> | undefined {
  if (typeof meta.resourceMetadata !== 'string') return undefined;
  const error = meta.bearerError === 'invalid_token' ? 'error="invalid_token", ' : '';
  return { 'WWW-Authenticate': `Bearer ${error}resource_metadata="${meta.resourceMetadata}"` };
}

/**
 * Research REST errors: `{error, code}`, with `details` listing field problems (422; `errorCount`
 * and `truncated` when it lists only the first) and
 * `requiredScope` naming the scope a key lacks (403); the 402 for missing credits is the
 * seed's body exactly: `{error, creditBalance, requiredCredits}`. A workspace route's 401
 * carries the `WWW-Authenticate` challenge.
 */
export const researchErrorBody: ErrorMapper = (error) => {
  if (error.status === 402) {
    return {
      status: 402,
      body: { error: error.message, creditBalance: error.meta.creditBalance, requiredCredits: error.meta.requiredCredits },
    };
  }
  const requiredScope = typeof error.meta.requiredScope === 'string' ? { requiredScope: error.meta.requiredScope } : {};
  return {
    status: error.status,
    body: {
      error: error.message,
      code: error.code.toLowerCase(),
      ...(error.details ? { details: error.details } : {}),
      ...error.truncation,
      ...requiredScope,
    },
    headers: {
      ...(typeof error.meta.retryAfter === 'number' ? { 'Retry-After': String(error.meta.retryAfter) } : {}),
      ...bearerChallenge(error.meta),
    },
  };
};
