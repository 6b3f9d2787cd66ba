import type { z } from 'zod';
import { SNAKE_CASE_FAMILIES } from './families.js';
import {
  contractFamily,
  snakeCase,
  wireName,
  type InputIssue,
  type InputLocation,
  type OperationContract,
  type RestBinding,
} from './operation.js';

// The contract's wire vocabulary lives with the contract (operation.ts); validation offers it to its callers too.
export { contractFamily, snakeCase, wireName, type InputIssue } from './operation.js';

/**
 * Validation of an operation's input, the same for every caller: the REST edge runs
 * it on the decoded request, the subgraph pipeline on GraphQL arguments and MCP tool
 * input. Problems come back as `InputIssue`s named by their wire names, so a family
 * words them once whoever called.
 */

export type InputValidation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: InputIssue[] };

/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Text PostgreSQL cannot store: a NUL character, or a lone surrogate (UTF-16 that is
 * not well formed, e.g. JSON's `"\ud800"`, which has no UTF-8 form). Refused everywhere
 * alike, whichever field it is in; `null` for text that may be stored.
 */
export function unstorableText(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode text (no lone surrogates)';
  return null;
}

interface CharacterProblem {
  readonly path: Array<string | number>;
  readonly message: string;
}

/** Where unstorable text hides in a value: in a string, or in an object's key (named by the object). */
function characterProblems(value: unknown, path: Array<string | number>, found: CharacterProblem[]): void {
  if (typeof value === 'string') {
    const message = unstorableText(value);
    if (message) found.push({ path, message });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => characterProblems(item, [...path, index], found));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const message = unstorableText(key);
      if (message) found.push({ path, message: `keys ${message}` });
      else characterProblems(item, [...path, key], found);
    }
  }
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The object a missing value was missing from: for a top-level field, the location's fields alone. */
function parentOf(contract: OperationContract, args: Record<string, unknown>, path: ReadonlyArray<PropertyKey>, location: InputLocation) {
  if (path.length > 1) return valueAt(args, path.slice(0, -1));
  return Object.fromEntries(Object.entries(args).filter(([field]) => contract.locations[field] === location));
}

/**
 * A field's path on the wire: its wire name then the nested keys (snake_case in the
 * library's families), without the field itself when it is the whole body.
 */
function wirePath(contract: OperationContract, path: ReadonlyArray<string | number>, binding: RestBinding | null | undefined) {
  // No binding: the operation's own argument names (as an MCP tool's input schema has them).
  if (binding === null) return [...path];
  const [field, ...rest] = path;
  if (field === undefined) return [];
  const snakeNested = SNAKE_CASE_FAMILIES.has(contractFamily(contract));
  const nested = rest.map((part) => (typeof part === 'string' && snakeNested ? snakeCase(part) : part));
  if (binding?.bodyField === field) return nested;
  return [wireName(contract, String(field), binding), ...nested];
}

function issueOf(
  contract: OperationContract,
  args: Record<string, unknown>,
  issue: z.core.$ZodIssue,
  binding: RestBinding | null | undefined,
): InputIssue {
  const [field] = issue.path as Array<string | number>;
  const location = (field === undefined ? 'body' : contract.locations[String(field)]) ?? 'body';
  const raw = issue as unknown as {
    expected?: string;
    minimum?: number | bigint;
    maximum?: number | bigint;
    values?: unknown[];
    params?: Record<string, unknown>;
  };
  const input = valueAt(args, issue.path);
  return {
    location,
    path: wirePath(contract, issue.path as Array<string | number>, binding),
    code: issue.code,
    message: issue.message,
    input,
    ...(input === undefined ? { parent: parentOf(contract, args, issue.path, location) } : {}),
    ...(raw.params ? { params: raw.params } : {}),
    ...(raw.expected !== undefined ? { expected: String(raw.expected) } : {}),
    ...(raw.minimum !== undefined ? { minimum: Number(raw.minimum) } : {}),
    ...(raw.maximum !== undefined ? { maximum: Number(raw.maximum) } : {}),
    ...(raw.values ? { values: raw.values } : {}),
  };
}

export interface ValidationOptions {
  /** The REST binding the input came through; problems are named as its wire names them (default: the first). */
  readonly binding?: RestBinding;
  /** Include the fields only the REST wire has. */
  readonly wire?: boolean;
  /**
   * Hold lenient fields (those whose schema catches a bad value into its default, as some
   * REST routes document) to the schema they publish, and refuse arguments it does not
   * declare: an MCP tool's `inputSchema`.
   */
  readonly strict?: boolean;
  /** Name problems by the operation's own argument names (an MCP tool's), not by a REST binding's. */
  readonly argumentNames?: boolean;
}

/** The problems of lenient fields against the schema inside their catch, paths from the field. */
function strictIssues(schema: z.ZodObject, args: Record<string, unknown>): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  for (const [field, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const def = fieldSchema._zod.def as { type: string; innerType?: z.ZodType };
    if (def.type !== 'catch' || !def.innerType || args[field] === undefined) continue;
    const checked = def.innerType.safeParse(args[field]);
    if (!checked.success) issues.push(...checked.error.issues.map((issue) => ({ ...issue, path: [field, ...issue.path] })));
  }
  return issues;
}

/** Arguments the schema does not declare: refused where the input is held to its published schema (an MCP tool's). */
function unknownArguments(schema: z.ZodObject, args: Record<string, unknown>): z.core.$ZodIssue[] {
  const shape = schema.shape as Record<string, z.ZodType>;
  return Object.keys(args)
    .filter((name) => !(name in shape))
    .map(
      (name) =>
        ({ code: 'unrecognized_keys', keys: [name], path: [name], message: 'unknown field', input: args[name] }) as z.core.$ZodIssue,
    );
}

/**
 * Checks the flat arguments (GraphQL names) of a contract: unstorable text anywhere,
 * then the contract's schema (and, `strict`, lenient fields against the schema they
 * publish). The value is the schema's output (defaults applied).
 */
export function validateInput<T>(
  contract: OperationContract,
  args: Record<string, unknown>,
  options: ValidationOptions = {},
): InputValidation<T> {
  const binding = options.argumentNames ? null : (options.binding ?? (contract.rest[0] as RestBinding | undefined));
  const characters: CharacterProblem[] = [];
  characterProblems(args, [], characters);
  if (characters.length > 0) {
    const issues = characters.map(({ path, message }) => ({
      location: contract.locations[String(path[0])] ?? 'body',
      path: wirePath(contract, path, binding),
      code: 'invalid_characters',
      message,
      input: valueAt(args, path),
    }));
    return { ok: false, issues };
  }
  const schema = options.wire ? contract.wireArgs : contract.args;
  const parsed = schema.safeParse(args);
  const lenient = options.strict ? [...unknownArguments(schema, args), ...strictIssues(schema, args)] : [];
  if (parsed.success && lenient.length === 0) return { ok: true, value: parsed.data as T };
  const issues = [...lenient, ...(parsed.success ? [] : parsed.error.issues)];
  return { ok: false, issues: issues.map((issue) => issueOf(contract, args, issue, binding)) };
}

/** `messages[0].role`: a wire path as one dotted name. */
export function dottedPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}
