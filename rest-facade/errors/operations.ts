import type { ErrorMapper } from '../route.js';

/**
 * Operations errors: RFC 9457 problem details `{type, title, status, code, instance,
 * errors?}` as application/problem+json; `type` is `about:blank` (the status says what
 * kind of problem it is and `code` which one), `errors` lists field failures of a 422
 * (the first 100; `errorCount` and `truncated` say when there were more).
 * The error's other facts (e.g. `state`, `allowedFrom`, `triesLeft`) are extension members;
 * `retryAfter` travels as the `Retry-After` header.
 */
export const operationsErrorBody: ErrorMapper = (error, ctx) => {
  const { retryAfter: _retryAfter, ...facts } = error.meta;
  return {
    status: error.status,
    type: 'application/problem+json',
    body: {
      ...facts,
      type: 'about:blank',
      title: error.message,
      status: error.status,
      code: error.code,
      instance: ctx.path,
      ...(error.details ? { errors: error.details } : {}),
    },
    headers: typeof error.meta.retryAfter === 'number' ? { 'Retry-After': String(error.meta.retryAfter) } : undefined,
  };
};
