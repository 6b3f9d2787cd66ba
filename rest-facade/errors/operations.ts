import { STATUS_CODES } from 'node:http';
import { registeredCode, type ErrorNamespace } from '../../contracts/errors.js';
import type { ErrorMapper } from '../route.js';

/** Where the operations family's codes are registered, the service's own first. */
const NAMESPACES: readonly ErrorNamespace[] = ['operations', 'common', 'edge', 'graphql'];

/** The problem type's title: the registered code's, else the status's reason phrase (as for `about:blank`). */
export function problemTitle(code: string, status: number): string {
  return registeredCode(code, NAMESPACES)?.title ?? STATUS_CODES[status] ?? 'Error';
}

/**
 * Operations errors: RFC 9457 problem details `{type, title, status, detail, code, instance,
 * errors?}` as application/problem+json; `type` is `about:blank` (the status says what
 * kind of problem it is and `code` which one), `title` is the code's stable title from the
 * error registry, `detail` this occurrence's message, `errors` lists field failures of a 422
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
      title: problemTitle(error.code, error.status),
      status: error.status,
      detail: error.message,
      code: error.code,
      instance: ctx.path,
      ...(error.details ? { errors: error.details } : {}),
    },
    headers: typeof error.meta.retryAfter === 'number' ? { 'Retry-After': String(error.meta.retryAfter) } : undefined,
  };
};
