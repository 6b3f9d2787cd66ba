import type { ErrorMapper } from '../route.js';

/**
 * Research REST errors: `{error, code}`; the 402 for missing credits adds
 * `creditBalance` and `requiredCredits` exactly as documented.
 */
export const researchErrorBody: ErrorMapper = (error) => {
  if (error.status === 402) {
    return {
      status: 402,
      body: { error: error.message, creditBalance: error.meta.creditBalance, requiredCredits: error.meta.requiredCredits },
    };
  }
  return {
    status: error.status,
    body: { error: error.message, code: error.code.toLowerCase(), ...(error.details ? { details: error.details } : {}) },
    headers: typeof error.meta.retryAfter === 'number' ? { 'Retry-After': String(error.meta.retryAfter) } : undefined,
  };
};
