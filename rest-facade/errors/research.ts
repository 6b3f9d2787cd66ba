import type { ErrorMapper } from '../route.js';

/**
 * Research REST errors: `{error, code}`, with `details` listing field problems (422) and
 * `requiredScope` naming the scope a key lacks (403); the 402 for missing credits is the
 * seed's body exactly: `{error, creditBalance, requiredCredits}`.
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
    body: { error: error.message, code: error.code.toLowerCase(), ...(error.details ? { details: error.details } : {}), ...requiredScope },
    headers: typeof error.meta.retryAfter === 'number' ? { 'Retry-After': String(error.meta.retryAfter) } : undefined,
  };
};
