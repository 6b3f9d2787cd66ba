import type { ErrorMapper } from '../route.js';

/** Operations errors: RFC 9457 Problem `{title, status, code, instance}` as application/problem+json. */
export const operationsErrorBody: ErrorMapper = (error, ctx) => ({
  status: error.status,
  type: 'application/problem+json',
  body: {
    title: error.message,
    status: error.status,
    code: error.code,
    instance: ctx.path,
    ...(error.details ? { errors: error.details } : {}),
  },
  headers: typeof error.meta.retryAfter === 'number' ? { 'Retry-After': String(error.meta.retryAfter) } : undefined,
});
