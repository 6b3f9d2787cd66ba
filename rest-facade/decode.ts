import type { Context } from 'koa';
import type { z } from 'zod';
import { wireName, type InputIssue } from '../contracts/input.js';
import type { InputLocation } from '../contracts/operation.js';
import { kindOf, unwrap } from '../contracts/schema-shape.js';
import type { Route } from './route.js';

/**
 * A REST request as the contract's flat input (GraphQL names): path, query and header
 * values taken by their wire names and coerced to what their schema expects (a number,
 * a boolean, a list); the JSON body as sent, or decoded where the wire differs. What
 * cannot be read becomes an issue; values of the wrong type are left for the schema
 * to name.
 */

export interface DecodedRequest {
  readonly args: Record<string, unknown>;
  readonly issues: InputIssue[];
}

const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A query, path or header string as the schema's type, when it reads as one. */
function coerce(raw: string | string[], schema: z.ZodType): unknown {
  const kind = kindOf(unwrap(schema).base);
  if (kind.kind === 'list') return (Array.isArray(raw) ? raw : raw.split(',')).map((item) => coerce(item, kind.item));
  const value = Array.isArray(raw) ? raw[0]! : raw;
  if (kind.kind === 'scalar' && (kind.scalar === 'int' || kind.scalar === 'float')) return NUMBER.test(value) ? Number(value) : value;
  if (kind.kind === 'scalar' && kind.scalar === 'boolean') {
    const flag = value.trim().toLowerCase();
    if (flag === '1' || flag === 'true') return true;
    if (flag === '0' || flag === 'false') return false;
  }
  return value;
}

/** Values of one string-valued location (path, query, headers); a blank value is absent. */
function readStrings(route: Route, location: InputLocation, source: Readonly<Record<string, string | string[] | undefined>>) {
  const args: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(route.contract.input[location] ?? {})) {
    const name = wireName(route.contract, field, route.binding);
    const raw = source[location === 'headers' ? name.toLowerCase() : name];
    if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) continue;
    args[field] = coerce(raw, schema);
  }
  return args;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body's fields by their GraphQL names. */
function readBody(route: Route, body: unknown, issues: InputIssue[]): Record<string, unknown> {
  const { binding, contract } = route;
  const fields = contract.input.body ?? {};
  if (Object.keys(fields).length === 0) return {};
  const decoded = binding.decode ? binding.decode(body, issues) : body;
  if (binding.bodyField) return decoded === undefined ? {} : { [binding.bodyField]: decoded };
  if (decoded === undefined) {
    // The admin family reports a missing body as such (FastAPI does); elsewhere it is an empty object.
    if (route.family === 'library-admin')
      issues.push({ location: 'body', path: [], code: 'missing', message: 'Field required', input: undefined });
    return {};
  }
  if (!isObject(decoded)) {
    issues.push({
      location: 'body',
      path: [],
      code: 'invalid_type',
      expected: 'object',
      message: 'the body must be a JSON object',
      input: decoded,
    });
    return {};
  }
  const args: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const field of Object.keys(fields)) {
    const name = wireName(contract, field, binding);
    known.add(name);
    const value = decoded[name];
    if (value !== undefined) args[field] = value;
  }
  // A field the contract does not declare is refused, not dropped: a misspelt field would
  // otherwise answer 200 and change nothing. A binding with its own `decode` reads a wire
  // format of its own and says which fields it takes (docs/adr/0036-strict-request-bodies.md).
  if (!binding.decode) {
    for (const [name, value] of Object.entries(decoded)) {
      if (known.has(name)) continue;
      issues.push({ location: 'body', path: [name], code: 'unrecognized_keys', message: 'unknown field', input: value });
    }
  }
  return args;
}

export function decodeRequest(route: Route, ctx: Context, body: unknown): DecodedRequest {
  const issues: InputIssue[] = [];
  const headers = ctx.headers as Record<string, string | string[] | undefined>;
  const args = {
    ...readStrings(route, 'path', (ctx.params ?? {}) as Record<string, string>),
    ...readStrings(route, 'query', ctx.query as Record<string, string | string[] | undefined>),
    ...readStrings(route, 'headers', headers),
    ...readBody(route, body, issues),
  };
  return { args, issues };
}
