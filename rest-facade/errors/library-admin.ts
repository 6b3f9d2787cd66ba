import type { ErrorMapper } from '../route.js';

interface ValidationItem {
  readonly loc: ReadonlyArray<string | number>;
  readonly msg: string;
  readonly type: string;
  readonly input?: unknown;
  readonly ctx?: Record<string, unknown>;
}

/**
 * Library admin errors. Validation failures are 422 `{detail:[{loc, msg, type,
 * input, ctx}]}`; every other failure is `{detail: message}` with its status, and a
 * refused admin token says nothing about why.
 */
export const libraryAdminErrorBody: ErrorMapper = (error) => {
  if (error.status === 400 && error.code === 'BAD_REQUEST') {
    // A body that is not JSON: FastAPI reports it as a 422 `json_invalid` item.
    return {
      status: 422,
      body: { detail: [{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid', input: {}, ctx: { error: error.message } }] },
    };
  }
  if (error.status === 422) {
    const items =
      (error.meta.validation as ValidationItem[] | undefined) ??
      (error.details ?? []).map((detail) => ({
        loc: ['body', detail.field],
        msg: detail.message,
        type: 'value_error',
        input: null,
        ctx: {},
      }));
    return { status: 422, body: { detail: items } };
  }
  return { status: error.status, body: { detail: error.message } };
};
