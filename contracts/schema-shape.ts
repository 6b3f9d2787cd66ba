import { z } from 'zod';

/**
 * Reading zod schemas as the derivations need them (GraphQL types, query-string
 * coercion, selections): what a field is once its wrappers are taken off.
 */

type AnySchema = z.ZodType;
type Def = { type: string; innerType?: AnySchema; in?: AnySchema; out?: AnySchema; getter?: () => AnySchema };

const defOf = (schema: AnySchema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

export interface Unwrapped {
  /** The schema without optional/nullable/default/catch/readonly wrappers and preprocessing. */
  readonly base: AnySchema;
  /** The value may be left out (optional, default or catch). */
  readonly optional: boolean;
  readonly nullable: boolean;
}

/** Takes wrappers off; a preprocess (`pipe` from a transform) is read as its target, a transform as its source. */
export function unwrap(schema: AnySchema): Unwrapped {
  let current = schema;
  let optional = false;
  let nullable = false;
  for (;;) {
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault' || def.type === 'catch') optional = true;
    if (def.type === 'nullable') nullable = true;
    if (['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type)) {
      current = def.innerType!;
    } else if (def.type === 'pipe') {
      current = defOf(def.in!).type === 'transform' ? def.out! : def.in!;
    } else if (def.type === 'lazy') {
      current = def.getter!();
    } else if (def.type === 'union' && nullableUnion(current)) {
      nullable = true;
      current = nullableUnion(current)!;
    } else {
      return { base: current, optional, nullable };
    }
  }
}

/** `A | null` written as a union: its non-null member. */
function nullableUnion(schema: AnySchema): AnySchema | undefined {
  const options = (defOf(schema) as unknown as { options: AnySchema[] }).options;
  const rest = options.filter((option) => defOf(option).type !== 'null');
  return rest.length === 1 && options.length === 2 ? rest[0] : undefined;
}

export type ScalarKind = 'string' | 'id' | 'int' | 'float' | 'boolean';

export type FieldKind =
  | { readonly kind: 'scalar'; readonly scalar: ScalarKind }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'object'; readonly shape: Readonly<Record<string, AnySchema>> }
  | { readonly kind: 'list'; readonly item: AnySchema }
  | { readonly kind: 'json' };

/** What a (wrapper-free) schema is, for GraphQL and the edge's coercion of query strings. */
export function kindOf(base: AnySchema): FieldKind {
  const def = defOf(base) as Def & { format?: string; entries?: Record<string, string>; values?: unknown[]; element?: AnySchema };
  switch (def.type) {
    case 'string':
      return { kind: 'scalar', scalar: def.format === 'uuid' ? 'id' : 'string' };
    case 'number':
      return { kind: 'scalar', scalar: isInteger(base) ? 'int' : 'float' };
    case 'int':
      return { kind: 'scalar', scalar: 'int' };
    case 'boolean':
      return { kind: 'scalar', scalar: 'boolean' };
    case 'enum':
      return { kind: 'enum', values: Object.values(def.entries ?? {}) };
    case 'literal': {
      const values = def.values ?? [];
      if (values.every((value) => typeof value === 'string')) return { kind: 'enum', values: values as string[] };
      if (values.every((value) => typeof value === 'boolean')) return { kind: 'scalar', scalar: 'boolean' };
      return { kind: 'scalar', scalar: values.every(Number.isInteger) ? 'int' : 'float' };
    }
    case 'object':
      return { kind: 'object', shape: (base as z.ZodObject).shape };
    case 'array':
      return { kind: 'list', item: def.element! };
    default:
      return { kind: 'json' };
  }
}

function isInteger(schema: AnySchema): boolean {
  const def = defOf(schema) as Def & { format?: string; checks?: Array<{ _zod: { def: { format?: string } } }> };
  if (def.format && /int/.test(def.format)) return true;
  return (def.checks ?? []).some((check) => /int/.test(check._zod.def.format ?? ''));
}

/** The `.meta({ id })` name of a schema, when it has one. */
export function schemaId(schema: AnySchema): string | undefined {
  return z.globalRegistry.get(schema)?.id;
}

/** A description from `.describe()`/`.meta()`, looked for through the wrappers. */
export function describeSchema(schema: AnySchema): string | undefined {
  let current: AnySchema | undefined = schema;
  for (let depth = 0; current && depth < 8; depth += 1) {
    const found = z.globalRegistry.get(current)?.description;
    if (found) return found;
    const def: Def = defOf(current);
    current = def.innerType ?? (def.type === 'pipe' ? (defOf(def.in!).type === 'transform' ? def.out : def.in) : undefined);
  }
  return undefined;
}

/** Field arguments declared on an output field (`.meta({ args: {...} })`), resolved by a field resolver. */
export function fieldArgs(schema: AnySchema): Readonly<Record<string, AnySchema>> | undefined {
  let current: AnySchema | undefined = schema;
  for (let depth = 0; current && depth < 8; depth += 1) {
    const args = z.globalRegistry.get(current)?.args as Record<string, AnySchema> | undefined;
    if (args) return args;
    current = defOf(current).innerType;
  }
  return undefined;
}

/** Whether a type is declared by several subgraphs alike (federation `@shareable`). */
export function isShareable(schema: AnySchema): boolean {
  return z.globalRegistry.get(schema)?.shareable === true;
}

/**
 * The federation key of an entity type (`@key(fields: …)`), e.g. `id`: a type several
 * subgraphs contribute fields to, each resolving its own from the key (docs/adr/0039).
 */
export function entityKey(schema: AnySchema): string | undefined {
  return z.globalRegistry.get(schema)?.key;
}

declare module 'zod' {
  interface GlobalMeta {
    /** Arguments of an output field (zod schemas), served by a field resolver the implementation binds; `{}` for a resolved field without arguments. */
    args?: Readonly<Record<string, unknown>>;
    /** The object type is a federation entity with this key (`@key(fields: …)`); each subgraph describes its own part. */
    key?: string;
    /** The object type is declared by several subgraphs alike (federation `@shareable`). */
    shareable?: boolean;
  }
}
