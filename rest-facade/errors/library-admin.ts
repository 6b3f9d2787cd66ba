import { EdgeErrorCode } from '../../contracts/errors.js';
import type { ValidationItem } from '../../contracts/library/refusals.js';
import type { ErrorMapper } from '../route.js';

/** Problems with the request body itself, each reported as a `detail` item about the body, as pydantic words one. */
const BODY_PROBLEMS = [
  { key: EdgeErrorCode.BAD_REQUEST, loc: ['body', 0], type: 'json_invalid', msg: 'JSON decode error', status: 422 },
  { key: EdgeErrorCode.PAYLOAD_TOO_LARGE, loc: ['body'], type: 'payload_too_large', msg: 'Request body is too large', status: 413 },
  {
    key: EdgeErrorCode.UNSUPPORTED_MEDIA_TYPE,
    loc: ['header', 'content-type'],
    type: 'unsupported_media_type',
    msg: 'Unsupported media type',
    status: 415,
  },
] as const;

/**
 * Library admin errors. Problems with the input — invalid fields (422), a body that is
 * not JSON (422, FastAPI's `json_invalid`), too large (413) or of another content type
 * (415) — are `{detail:[{loc, msg, type, input, ctx}]}` with their status; a refused
 * admin token and other failures are `{detail: message}`, saying nothing about why.
 * A `detail` list cut short says so beside it: `errorCount`, `truncated`.
 */
export const libraryAdminErrorBody: ErrorMapper = (error) => {
  const body = BODY_PROBLEMS.find((problem) => error.is(problem.key));
  if (body) {
    const item: ValidationItem = { loc: body.loc, msg: body.msg, type: body.type, input: {}, ctx: { error: error.message } };
    return { status: body.status, body: { detail: [item] } };
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
    return { status: 422, body: { detail: items, ...error.truncation } };
  }
  return { status: error.status, body: { detail: error.message } };
};
