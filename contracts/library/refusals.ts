import { DomainError, MAX_LISTED_PROBLEMS, truncationOf } from '../errors.js';
import { dottedPath, type InputIssue } from '../input.js';
import { LibraryErrorCode } from './errors.js';

/** One invalid parameter, as `details` lists it. */
export interface ParameterProblem {
  readonly field: string;
  readonly message: string;
}

/** `/v1`: every problem at once (the first `MAX_LISTED_PROBLEMS`), as `invalid_parameter` naming the first. */
export function invalidParameters(all: readonly ParameterProblem[]): DomainError {
  const problems = all.slice(0, MAX_LISTED_PROBLEMS);
  const message = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  return new DomainError(LibraryErrorCode.invalid_parameter, message || 'invalid parameters', {
    param: problems[0]?.field ?? null,
    details: problems,
    meta: truncationOf(all.length),
  });
}

export const libraryRefusal = (issues: readonly InputIssue[]): DomainError =>
  invalidParameters(issues.map((issue) => ({ field: dottedPath(issue.path) || issue.location, message: issue.message })));

/** One problem with admin input, in the shape FastAPI/pydantic clients parse (the seed's Validation error). */
export interface ValidationItem {
  readonly loc: ReadonlyArray<string | number>;
  readonly msg: string;
  readonly type: string;
  readonly input: unknown;
  readonly ctx: Readonly<Record<string, unknown>>;
}

function literalList(values: readonly unknown[]): string {
  const quoted = values.map((value) => `'${String(value)}'`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}

type Worded = Pick<ValidationItem, 'msg' | 'type' | 'ctx'>;

/** An integer problem worded by what was sent, as pydantic's lax mode tells them apart. */
function integerProblem(input: unknown): Worded {
  if (typeof input === 'number') {
    return { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part', ctx: {} };
  }
  if (typeof input === 'string') {
    return { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer', ctx: {} };
  }
  return { type: 'int_type', msg: 'Input should be a valid integer', ctx: {} };
}

/** zod's issue, worded as pydantic v2 words it. Custom checks carry their own wording in the message. */
function pydantic(issue: InputIssue): Worded {
  const own = issue.params?.pydantic as Worded | undefined;
  if (own) return own;
  if (issue.input === undefined) return { type: 'missing', msg: 'Field required', ctx: {} };
  switch (issue.code) {
    case 'unrecognized_keys':
      return { type: 'extra_forbidden', msg: 'Extra inputs are not permitted', ctx: {} };
    case 'invalid_type':
      if (issue.expected === 'int' || issue.expected === 'number') return integerProblem(issue.input);
      if (issue.expected === 'object') {
        return { type: 'model_attributes_type', msg: 'Input should be a valid dictionary or object to extract fields from', ctx: {} };
      }
      return { type: 'string_type', msg: 'Input should be a valid string', ctx: {} };
    case 'too_small':
      return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${issue.minimum}`, ctx: { ge: issue.minimum } };
    case 'too_big':
      if (typeof issue.input === 'string') {
        return {
          type: 'string_too_long',
          msg: `String should have at most ${issue.maximum} characters`,
          ctx: { max_length: issue.maximum },
        };
      }
      return { type: 'less_than_equal', msg: `Input should be less than or equal to ${issue.maximum}`, ctx: { le: issue.maximum } };
    case 'invalid_value': {
      const expected = literalList(issue.values ?? []);
      return { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected } };
    }
    default: {
      const error = issue.message.replace(/^Value error, /, '');
      return { type: 'value_error', msg: issue.message, ctx: { error } };
    }
  }
}

/** The admin family: a pydantic `detail` list; `loc` names where each value came from. */
export function adminValidation(all: readonly ValidationItem[]): DomainError {
  const items = all.slice(0, MAX_LISTED_PROBLEMS);
  const first = items[0];
  return new DomainError(LibraryErrorCode.invalid_admin_input, first ? `${first.loc.join('.')}: ${first.msg}` : 'invalid input', {
    param: first ? String(first.loc.at(-1)) : null,
    details: items.map((item) => ({ field: item.loc.slice(1).join('.') || String(item.loc[0]), message: item.msg })),
    meta: { validation: items, ...truncationOf(all.length) },
  });
}

export function adminRefusal(issues: readonly InputIssue[]): DomainError {
  return adminValidation(
    issues.map((issue) => {
      const worded = pydantic(issue);
      const missingField = worded.type === 'missing' && issue.path.length > 0;
      return {
        loc: [issue.location, ...issue.path],
        ...worded,
        input: worded.type === 'missing' ? (missingField && issue.location === 'body' ? (issue.parent ?? {}) : null) : issue.input,
      };
    }),
  );
}

/** The upload's `Content-Type` names no import format. */
export function unknownImportFormat(formats: readonly string[]): DomainError {
  const message = `format must be one of ${formats.join(', ')}`;
  return new DomainError(LibraryErrorCode.invalid_import, message, {
    param: 'content-type',
    details: [{ field: 'content-type', message }],
    meta: { validation: [{ loc: ['header', 'content-type'], msg: message, type: 'value_error', input: null, ctx: { formats } }] },
  });
}

/** A key id no key has, reported as pydantic reports a failed check of the path parameter. */
export function unknownKey(keyId: number): DomainError {
  const error = `no API key has id ${keyId}`;
  return adminValidation([{ loc: ['path', 'key_id'], msg: `Value error, ${error}`, type: 'value_error', input: keyId, ctx: { error } }]);
}
