import { z } from 'zod';
import type { InputLocation, OperationContract } from './operation.js';
import { kindOf, unwrap } from './schema-shape.js';

/**
 * Fields of an operation's input that name a record by id. A field declares what it
 * references on its schema (`.meta({ 'x-references': … })`); the subgraph pipeline reads the
 * declarations of each contract once and checks, in the call's transaction, that every id
 * given names a record the caller may see (docs/adr/0025-references-in-the-tenant.md).
 */

/** What a field's id names: a kind of record, or a kind chosen by the value of a sibling field. */
export type ReferenceTarget =
  | { readonly kind: string }
  /** The kind is the value of `field` beside this one (e.g. a document's `entityType`). */
  | { readonly kindFrom: string };

export interface ReferenceDeclaration {
  readonly target: ReferenceTarget;
}

declare module 'zod' {
  interface GlobalMeta {
    /** Kept as an extension, so the OpenAPI and tool schemas say what the id names. */
    'x-references'?: ReferenceTarget;
  }
}

/** Declares on an id schema the record it names. */
export function references<T extends z.ZodType>(schema: T, target: ReferenceTarget): T {
  return schema.meta({ 'x-references': target }) as T;
}

/** A declared reference of a contract: where its ids are in the input, and what they name. */
export interface ReferenceField extends ReferenceDeclaration {
  readonly location: InputLocation;
  /** Keys from the input's top level to the id; `[]` stands for every item of a list. */
  readonly path: ReadonlyArray<string | '[]'>;
  /** The field's name as a caller reads it, e.g. `lines[].itemId`. */
  readonly param: string;
}

/** One id of a call's input and what it must name. */
export interface ReferenceValue {
  readonly field: ReferenceField;
  /** The kind of record: declared, or read from the sibling field. */
  readonly kind: string;
  readonly id: string;
  /** The parameter as in the request, with the item's index: `lines[2].itemId`. */
  readonly param: string;
}

function declarationOf(schema: z.ZodType): ReferenceDeclaration | undefined {
  const { base } = unwrap(schema);
  const target = z.globalRegistry.get(schema)?.['x-references'] ?? z.globalRegistry.get(base)?.['x-references'];
  return target && { target };
}

function collect(schema: z.ZodType, location: InputLocation, path: Array<string | '[]'>, found: ReferenceField[]): void {
  const declared = declarationOf(schema);
  const { base } = unwrap(schema);
  const kind = kindOf(base);
  if (declared) {
    const param = path.reduce<string>((name, key) => (key === '[]' ? `${name}[]` : name ? `${name}.${key}` : key), '');
    found.push({ ...declared, location, path: [...path], param });
    return;
  }
  if (kind.kind === 'list') collect(kind.item, location, [...path, '[]'], found);
  if (kind.kind === 'object') for (const [key, field] of Object.entries(kind.shape)) collect(field, location, [...path, key], found);
}

const cache = new WeakMap<OperationContract, readonly ReferenceField[]>();

/** The declared references of a contract's body and query, read once per contract. */
export function referenceFields(contract: OperationContract): readonly ReferenceField[] {
  const cached = cache.get(contract);
  if (cached) return cached;
  const found: ReferenceField[] = [];
  for (const location of ['body', 'query'] as const) {
    for (const [name, schema] of Object.entries(contract.input[location] ?? {})) collect(schema, location, [name], found);
  }
  cache.set(contract, found);
  return found;
}

/** Every id a validated input gives for the contract's declared references. */
export function referenceValues(contract: OperationContract, input: unknown): ReferenceValue[] {
  const values: ReferenceValue[] = [];
  for (const field of referenceFields(contract)) {
    const visit = (value: unknown, at: number, param: string, parent: unknown) => {
      if (at === field.path.length) {
        if (typeof value !== 'string') return;
        const kind = 'kind' in field.target ? field.target.kind : (parent as Record<string, unknown> | undefined)?.[field.target.kindFrom];
        if (typeof kind === 'string') values.push({ field, kind, id: value, param });
        return;
      }
      const key = field.path[at]!;
      if (key === '[]') {
        if (Array.isArray(value)) value.forEach((item, index) => visit(item, at + 1, `${param}[${index}]`, value));
        return;
      }
      if (typeof value !== 'object' || value === null) return;
      visit((value as Record<string, unknown>)[key], at + 1, param ? `${param}.${key}` : key, value);
    };
    visit(input, 0, '', undefined);
  }
  return values;
}
