import { GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString, GraphQLBoolean, type GraphQLScalarType } from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { Directive, Field, InputType, ObjectType, registerEnumType, type ClassType } from 'type-graphql';
import type { z } from 'zod';
import { aliasDeprecation, deprecatedAliasOf, graphqlName } from '../../../contracts/graphql-names.js';
import {
  describeSchema,
  entityKey,
  fieldArgs,
  isShareable,
  kindOf,
  schemaId,
  unwrap,
  type ScalarKind,
} from '../../../contracts/schema-shape.js';

/**
 * Contract schemas as type-graphql types: each zod object becomes a class decorated
 * at run time, so the subgraph's schema is still built by type-graphql's
 * `buildSchema` and a type is described once, in zod. Named objects (`.meta({ id })`)
 * keep their name; unnamed ones are named after where they appear. A name claimed by
 * two different schemas is an error at start-up, except an entity's (`.meta({ key })`):
 * each subgraph describes its own fields of it, and composition joins them.
 */

type TypeRef = ClassType | GraphQLScalarType | object;
export type GraphQLTypeFn = () => TypeRef | TypeRef[];

export interface FieldType {
  readonly type: GraphQLTypeFn;
  readonly nullable: boolean | 'items' | 'itemsAndList';
}

const SCALARS: Readonly<Record<ScalarKind, GraphQLScalarType>> = {
  string: GraphQLString,
  id: GraphQLID,
  int: GraphQLInt,
  float: GraphQLFloat,
  boolean: GraphQLBoolean,
};

/** Nullability of an input that may be left out: items keep theirs. */
export const inputNullable = (nullable: FieldType['nullable']): FieldType['nullable'] =>
  nullable === 'items' || nullable === 'itemsAndList' ? 'itemsAndList' : true;

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase());

/**
 * Builds the type-graphql classes of contract schemas, once per schema object for the
 * whole process (type-graphql's metadata is global, and a subgraph may be built more
 * than once, e.g. to print its SDL).
 */
class GraphQLTypeFactory {
  private readonly classes = new Map<z.ZodType, ClassType>();
  private readonly inputClasses = new Map<z.ZodType, ClassType>();
  private readonly enums = new Map<string, object>();
  private readonly names = new Map<string, unknown>();

  /** The class of an object schema used as a result. */
  objectClass(schema: z.ZodType, fallbackName: string): ClassType {
    return this.classFor(schema, fallbackName, 'output');
  }

  /** A field's GraphQL type as type-graphql wants it: a thunk and its nullability. */
  fieldType(schema: z.ZodType, nameHint: string, direction: 'input' | 'output'): FieldType {
    const { base, optional, nullable } = unwrap(schema);
    const kind = kindOf(base);
    const selfNullable = nullable || (direction === 'input' ? optional : false);
    if (kind.kind === 'list') {
      const item = this.fieldType(kind.item, nameHint, direction);
      const itemType = item.type;
      const itemsNullable = item.nullable === true;
      const type: GraphQLTypeFn = () => [itemType() as TypeRef];
      if (itemsNullable) return { type, nullable: selfNullable ? 'itemsAndList' : 'items' };
      return { type, nullable: selfNullable };
    }
    return { type: this.namedType(base, nameHint, direction), nullable: selfNullable };
  }

  private namedType(base: z.ZodType, nameHint: string, direction: 'input' | 'output'): GraphQLTypeFn {
    const kind = kindOf(base);
    switch (kind.kind) {
      case 'scalar':
        return () => SCALARS[kind.scalar];
      case 'json':
        return () => GraphQLJSON;
      case 'enum': {
        const enumType = this.enumFor(base, kind.values);
        return enumType ? () => enumType : () => GraphQLString;
      }
      case 'object': {
        const cls = this.classFor(base, nameHint, direction);
        return () => cls;
      }
      case 'list':
        throw new Error(`${nameHint}: nested lists are not supported`);
    }
  }

  /** A named enum becomes a GraphQL enum when its values are GraphQL names; otherwise a documented String. */
  private enumFor(schema: z.ZodType, values: readonly string[]): object | undefined {
    const id = schemaId(schema);
    if (!id || !values.every((value) => GRAPHQL_NAME.test(value))) return undefined;
    const known = this.enums.get(id);
    if (known) return known;
    this.claim(id, schema);
    const enumObject = Object.fromEntries(values.map((value) => [value, value]));
    registerEnumType(enumObject, { name: id, description: describeSchema(schema) });
    this.enums.set(id, enumObject);
    return enumObject;
  }

  private classFor(schema: z.ZodType, nameHint: string, direction: 'input' | 'output'): ClassType {
    const cache = direction === 'input' ? this.inputClasses : this.classes;
    const known = cache.get(schema);
    if (known) return known;
    const id = schemaId(schema) ?? nameHint;
    const name = direction === 'input' && !id.endsWith('Input') ? `${id}Input` : id;
    this.claim(name, schema);
    const cls = { [name]: class {} }[name]!;
    cache.set(schema, cls);
    const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
    const named = new Map<string, string>();
    for (const [field, fieldSchema] of Object.entries(shape)) {
      const fieldName = graphqlName(field);
      if (named.has(fieldName)) throw new Error(`${name}: fields ${named.get(fieldName)} and ${field} are both ${fieldName} in GraphQL`);
      named.set(fieldName, field);
      if (direction === 'output' && fieldArgs(fieldSchema)) continue;
      const { type, nullable } = this.fieldType(fieldSchema, `${id}${pascal(field)}`, direction);
      const description = describeSchema(fieldSchema);
      const alias = deprecatedAliasOf({ type: name }, field);
      if (direction === 'output') {
        // Results keep their schema's keys: both fields read the same property.
        Field(type as never, { name: fieldName, nullable, description })(cls.prototype, field);
        if (alias) Field(type as never, { nullable, deprecationReason: aliasDeprecation(field) })(cls.prototype, field);
      } else {
        // Input arrives by GraphQL names (type-graphql reads input by property); `fromGraphQLNames`
        // keys it back. While an alias may stand in for it, the new name is optional in GraphQL
        // and the contract's validation requires the field.
        Field(type as never, { nullable: alias ? inputNullable(nullable) : nullable, description })(cls.prototype, fieldName);
        if (alias)
          Field(type as never, { nullable: inputNullable(nullable), deprecationReason: aliasDeprecation(field) })(cls.prototype, alias);
      }
    }
    const options = { description: describeSchema(schema) };
    if (direction === 'input') InputType(name, options)(cls);
    else {
      ObjectType(name, options)(cls);
      if (isShareable(schema)) Directive('@shareable')(cls);
      const key = entityKey(schema);
      if (key) Directive(`@key(fields: "${key}")`)(cls);
    }
    return cls;
  }

  private claim(name: string, owner: unknown): void {
    if (!GRAPHQL_NAME.test(name)) throw new Error(`${name} is not a GraphQL name`);
    const holder = this.names.get(name);
    const entities = [holder, owner].every((schema) => schema instanceof Object && entityKey(schema as z.ZodType) !== undefined);
    if (holder !== undefined && holder !== owner && !entities)
      throw new Error(`GraphQL type ${name} is described by two different schemas`);
    this.names.set(name, owner);
  }
}

/** The process's one factory: every contract schema maps to one class. */
export const graphqlTypes = new GraphQLTypeFactory();
