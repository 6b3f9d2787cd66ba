import type { z } from 'zod';
import { kindOf, unwrap } from './schema-shape.js';

/**
 * GraphQL names of contract fields (docs/adr/0040-graphql-naming.md). A schema's keys are
 * its wire names, as the documented REST bodies spell them (`access_token`); GraphQL
 * names every output field, argument and input field in camelCase (`accessToken`). A key
 * whose GraphQL name differs was released under the old name, which stays in the graph
 * as a deprecated alias for one release. Enum values are data and keep their spelling.
 */

/** `access_token` → `accessToken`; a camelCase key is its own GraphQL name. */
export const graphqlName = (key: string): string =>
  key.replace(/(?<=[A-Za-z0-9])_+([A-Za-z0-9])/g, (_match, next: string) => next.toUpperCase());

/** The released name kept as a deprecated alias of a key's GraphQL name, when the two differ. */
export const deprecatedAliasOf = (key: string): string | undefined => (graphqlName(key) === key ? undefined : key);

/** The deprecation of an alias, naming what replaces it. */
export const aliasDeprecation = (key: string): string => `Use ${graphqlName(key)}; removed in the next release.`;

/** A key given under both its GraphQL name and its deprecated alias. */
export interface NameConflict {
  /** Schema keys (and indexes) down to the object holding the key, then the key. */
  readonly path: ReadonlyArray<string | number>;
  readonly name: string;
  readonly alias: string;
  readonly value: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A GraphQL value (arguments, an input object, or a result) keyed as its schema is: each
 * key read from its GraphQL name, else from its deprecated alias. Keys given both ways are
 * reported in `conflicts` (the GraphQL name wins in the value).
 */
export function fromGraphQLNames(
  schema: z.ZodType,
  value: unknown,
  conflicts: NameConflict[] = [],
  path: Array<string | number> = [],
): unknown {
  const kind = kindOf(unwrap(schema).base);
  if (kind.kind === 'list')
    return Array.isArray(value) ? value.map((item, index) => fromGraphQLNames(kind.item, item, conflicts, [...path, index])) : value;
  if (kind.kind !== 'object' || !isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, field] of Object.entries(kind.shape)) {
    const name = graphqlName(key);
    if (name === key) {
      if (value[key] !== undefined) out[key] = fromGraphQLNames(field, value[key], conflicts, [...path, key]);
      continue;
    }
    const given = value[name];
    const aliased = value[key];
    if (given !== undefined && aliased !== undefined) conflicts.push({ path: [...path, key], name, alias: key, value: aliased });
    delete out[name];
    delete out[key];
    const chosen = given !== undefined ? given : aliased;
    if (chosen !== undefined) out[key] = fromGraphQLNames(field, chosen, conflicts, [...path, key]);
  }
  return out;
}

/** A value keyed as its schema is, keyed by GraphQL names (e.g. the variables of a named operation). */
export function toGraphQLNames(schema: z.ZodType, value: unknown): unknown {
  const kind = kindOf(unwrap(schema).base);
  if (kind.kind === 'list') return Array.isArray(value) ? value.map((item) => toGraphQLNames(kind.item, item)) : value;
  if (kind.kind !== 'object' || !isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = kind.shape[key];
    out[field ? graphqlName(key) : key] = field ? toGraphQLNames(field, item) : item;
  }
  return out;
}
