import type { ValidationIssue } from './accounts.errors.js';
import { emailProblem } from './email.js';
import { KEY_STATUSES, PLAN_NAMES, RPD_OVERRIDE_MAX, RPD_OVERRIDE_MIN, type KeyStatus, type PlanName } from './plans.js';

/**
 * Validation of admin input, worded as FastAPI/pydantic v2 words it (the seed's
 * Validation error): `loc` names where a value came from (`["path","key_id"]`,
 * `["body","plan"]`). One function serves both boundaries: the REST facade checks a
 * request before running its operation (as FastAPI does before a handler), and the
 * admin service checks GraphQL arguments the same way.
 */

type Issue = Omit<ValidationIssue, 'loc' | 'input'>;
type Parsed<T> = { readonly value: T } | { readonly issue: Issue };
type Parser<T> = (input: unknown) => Parsed<T>;

const INT_MAX = 2_147_483_647;

function literalList(values: readonly string[]): string {
  const quoted = values.map((value) => `'${value}'`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}

const string =
  (maxLength?: number): Parser<string> =>
  (input) => {
    if (typeof input !== 'string') return { issue: { type: 'string_type', msg: 'Input should be a valid string', ctx: {} } };
    if (maxLength !== undefined && input.length > maxLength) {
      return {
        issue: { type: 'string_too_long', msg: `String should have at most ${maxLength} characters`, ctx: { max_length: maxLength } },
      };
    }
    return { value: input };
  };

/** Lax integers as pydantic takes them from JSON: numbers without a fraction and integer strings. */
const integer =
  (bounds: { ge?: number; le?: number } = {}): Parser<number> =>
  (input) => {
    let value: number;
    if (typeof input === 'number' && Number.isFinite(input)) {
      if (!Number.isInteger(input)) {
        return { issue: { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part', ctx: {} } };
      }
      value = input;
    } else if (typeof input === 'string') {
      if (!/^\s*[+-]?\d+\s*$/.test(input)) {
        return { issue: { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer', ctx: {} } };
      }
      value = Number.parseInt(input, 10);
    } else {
      return { issue: { type: 'int_type', msg: 'Input should be a valid integer', ctx: {} } };
    }
    if (bounds.ge !== undefined && value < bounds.ge) {
      return {
        issue: { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${bounds.ge}`, ctx: { ge: bounds.ge } },
      };
    }
    if (bounds.le !== undefined && value > bounds.le) {
      return { issue: { type: 'less_than_equal', msg: `Input should be less than or equal to ${bounds.le}`, ctx: { le: bounds.le } } };
    }
    return { value };
  };

const literal =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (input) => {
    if (typeof input === 'string' && (values as readonly string[]).includes(input)) return { value: input as T };
    const expected = literalList(values);
    return { issue: { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected } } };
  };

const email: Parser<string> = (input) => {
  const text = string(254)(input);
  if ('issue' in text) return text;
  const reason = emailProblem(text.value.trim());
  if (reason) return { issue: { type: 'value_error', msg: `value is not a valid email address: ${reason}`, ctx: { reason } } };
  return { value: text.value.trim() };
};

const nullable =
  <T>(parser: Parser<T>): Parser<T | null> =>
  (input) =>
    input === null ? { value: null } : parser(input);

interface FieldSpec<T> {
  readonly parse: Parser<T>;
  /** Present when the field may be left out. */
  readonly default?: T;
}

const field = <T>(parse: Parser<T>, options: { default?: T } = {}): FieldSpec<T> => ({ parse, ...options });

const keyId = field(integer());

/** Every admin command: its path parameters and body fields. */
const COMMANDS = {
  createKey: {
    path: {},
    body: { email: field(email), plan: field(literal(PLAN_NAMES)), org: field(nullable(string(200)), { default: null }) },
  },
  setPlan: { path: { key_id: keyId }, body: { plan: field(literal(PLAN_NAMES)) } },
  setRpd: { path: { key_id: keyId }, body: { rpd: field(nullable(integer({ ge: RPD_OVERRIDE_MIN, le: RPD_OVERRIDE_MAX }))) } },
  setStatus: { path: { key_id: keyId }, body: { status: field(literal(KEY_STATUSES)) } },
} as const;

export type AdminCommand = keyof typeof COMMANDS;

/** What each command yields once valid. */
export interface AdminInput {
  createKey: { email: string; plan: PlanName; org: string | null };
  setPlan: { keyId: number; plan: PlanName };
  setRpd: { keyId: number; rpd: number | null };
  setStatus: { keyId: number; status: KeyStatus };
}

export type AdminValidation<C extends AdminCommand> =
  { readonly ok: true; readonly value: AdminInput[C] } | { readonly ok: false; readonly issues: ValidationIssue[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseFields(
  where: 'path' | 'body',
  specs: Readonly<Record<string, FieldSpec<unknown>>>,
  source: Readonly<Record<string, unknown>>,
  issues: ValidationIssue[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const raw = source[name];
    if (raw === undefined) {
      if ('default' in spec) values[name] = spec.default;
      else issues.push({ loc: [where, name], msg: 'Field required', type: 'missing', input: where === 'body' ? source : null, ctx: {} });
      continue;
    }
    const parsed = spec.parse(raw);
    if ('issue' in parsed)
      issues.push({ loc: [where, name], msg: parsed.issue.msg, type: parsed.issue.type, input: raw, ctx: parsed.issue.ctx });
    else values[name] = parsed.value;
  }
  return values;
}

/**
 * Checks one admin command's path parameters and JSON body; every problem is listed,
 * path first, as FastAPI lists them.
 */
export function validateAdminCommand<C extends AdminCommand>(
  command: C,
  request: { readonly path?: Readonly<Record<string, unknown>>; readonly body: unknown },
): AdminValidation<C> {
  const spec = COMMANDS[command] as { path: Record<string, FieldSpec<unknown>>; body: Record<string, FieldSpec<unknown>> };
  const issues: ValidationIssue[] = [];
  const path = parseFields('path', spec.path, request.path ?? {}, issues);
  let body: Record<string, unknown> = {};
  if (request.body === undefined || request.body === null) {
    issues.push({ loc: ['body'], msg: 'Field required', type: 'missing', input: null, ctx: {} });
  } else if (!isObject(request.body)) {
    issues.push({
      loc: ['body'],
      msg: 'Input should be a valid dictionary or object to extract fields from',
      type: 'model_attributes_type',
      input: request.body,
      ctx: {},
    });
  } else {
    body = parseFields('body', spec.body, request.body, issues);
  }
  // An id outside PostgreSQL `integer` names no key; saying so here keeps it off GraphQL's 32-bit Int.
  if (typeof path.key_id === 'number' && !isStorableKeyId(path.key_id)) issues.unshift(unknownKeyIssue(path.key_id));
  if (issues.length > 0) return { ok: false, issues };
  const { key_id: id, ...rest } = { ...path, ...body };
  return { ok: true, value: (id === undefined ? rest : { keyId: id, ...rest }) as AdminInput[C] };
}

/** The issue of a key id no key has; pydantic words a failed custom check as a value error. */
export function unknownKeyIssue(keyId: number): ValidationIssue {
  const error = `no API key has id ${keyId}`;
  return { loc: ['path', 'key_id'], msg: `Value error, ${error}`, type: 'value_error', input: keyId, ctx: { error } };
}

/** Whether an id can name a row at all (PostgreSQL `integer`). */
export function isStorableKeyId(keyId: number): boolean {
  return Number.isSafeInteger(keyId) && keyId >= 1 && keyId <= INT_MAX;
}
