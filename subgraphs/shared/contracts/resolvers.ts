import { GraphQLError } from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { Arg, Ctx, Directive, FieldResolver, Int, Mutation, Query, Resolver, Root, type ClassType } from 'type-graphql';
import { z } from 'zod';
import {
  aliasDeprecation,
  deprecatedAliasOf,
  fromGraphQLNames,
  graphqlName,
  operationAliasDeprecation,
  operationAliasesOf,
  type NameConflict,
} from '../../../contracts/graphql-names.js';
import { wireName, type InputIssue } from '../../../contracts/input.js';
import { callerCheckFieldOf, refusalFieldOf, type OperationContract, type ServiceName } from '../../../contracts/operation.js';
import { describeSchema, fieldArgs, kindOf, unwrap } from '../../../contracts/schema-shape.js';
import type { SubgraphContext } from '../context.js';
import { graphqlTypes, inputNullable } from './graphql-types.js';
import type { EntityImplementation, FieldImplementation } from './implementation.js';
import type { OperationPipeline } from './pipeline.js';
import { CommonErrorCode, wireCode } from '../../../contracts/errors.js';

/**
 * The type-graphql resolvers of a service's contracts, generated: one field per query
 * or mutation (arguments from the input schema, type from the output schema) that
 * hands its call to the pipeline, field resolvers for output fields with arguments, and
 * `<service>InputRefusal`, through which the REST edge has the service refuse input it
 * found invalid. Behaviour is looked up when a call arrives, so the schema can be
 * built (and printed) without services.
 *
 * A root field whose access can refuse the caller is nullable: a refused field is `null`
 * with its error, and the other fields of the same request keep their data. The edge's
 * own fields are `@inaccessible`: they are not part of the public graph, and the edge
 * calls them on the owning subgraph directly (docs/adr/0027-one-public-graph.md).
 */

export interface ContractRuntime {
  readonly pipeline: OperationPipeline;
  readonly fields: ReadonlyMap<z.ZodType, FieldImplementation>;
  /** How the subgraph finds its entities by key (`__resolveReference`), by entity schema. */
  readonly entities: ReadonlyMap<z.ZodType, EntityImplementation>;
}

const pascal = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;

/** Declares a method on a generated class and applies decorators to it as TypeScript would. */
function method(cls: ClassType, name: string, body: (...params: unknown[]) => unknown): PropertyDescriptor {
  Object.defineProperty(cls.prototype, name, { value: body, writable: true, configurable: true });
  return Object.getOwnPropertyDescriptor(cls.prototype, name)!;
}

/** Arguments read back from a call: keyed as the input schema is, and any given under both names. */
interface ReadArgs {
  readonly args: Record<string, unknown>;
  readonly conflicts: NameConflict[];
}

/**
 * Arguments as type-graphql parameters, in order from `offset` (after `@Root` for a
 * field resolver): by their GraphQL names, then the deprecated aliases of released names
 * (`owner` is the field they are arguments of); the context comes last. Returns how to
 * read them back, keyed as the schema is.
 */
function declareArgs(
  cls: ClassType,
  name: string,
  shape: Readonly<Record<string, z.ZodType>>,
  hint: string,
  offset = 0,
  owner = name,
): (params: unknown[]) => ReadArgs {
  const fields = Object.entries(shape);
  const parameters: string[] = [];
  for (const [field, schema] of fields) {
    const { type, nullable } = graphqlTypes.fieldType(schema, `${hint}${pascal(field)}`, 'input');
    const description = describeSchema(schema);
    const alias = deprecatedAliasOf({ field: owner }, field);
    // While an alias may stand in for it, the new name is optional in GraphQL and the contract's validation requires it.
    Arg(graphqlName(field), type as never, { nullable: alias ? inputNullable(nullable) : nullable, description })(
      cls.prototype,
      name,
      offset + parameters.length,
    );
    parameters.push(graphqlName(field));
  }
  for (const [field, schema] of fields) {
    const alias = deprecatedAliasOf({ field: owner }, field);
    if (!alias) continue;
    const { type, nullable } = graphqlTypes.fieldType(schema, `${hint}${pascal(field)}`, 'input');
    const options = { nullable: inputNullable(nullable), deprecationReason: aliasDeprecation(field) };
    Arg(alias, type as never, options)(cls.prototype, name, offset + parameters.length);
    parameters.push(alias);
  }
  Ctx()(cls.prototype, name, offset + parameters.length);
  const argsSchema = z.object(shape);
  return (params) => {
    const given: Record<string, unknown> = {};
    parameters.forEach((argument, index) => {
      const value = params[offset + index];
      if (value !== undefined) given[argument] = plain(value);
    });
    const conflicts: NameConflict[] = [];
    const args = fromGraphQLNames(argsSchema, given, conflicts) as Record<string, unknown>;
    return { args, conflicts };
  };
}

/** Problems of arguments given under both their name and its deprecated alias, as a refusal lists them. */
function conflictIssues(contract: OperationContract, conflicts: readonly NameConflict[]): InputIssue[] {
  return conflicts.map(({ path, name, alias, value }) => {
    const [field, ...nested] = path;
    return {
      location: contract.locations[String(field)] ?? 'body',
      path: [wireName(contract, String(field)), ...nested],
      code: 'custom',
      message: `give ${name} or its deprecated alias ${alias}, not both`,
      input: value,
    };
  });
}

/** type-graphql hands input objects over as class instances; contracts validate plain data. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}

function operationResolver(service: ServiceName, contracts: readonly OperationContract[], runtime: () => ContractRuntime): ClassType {
  const cls = { [`${pascal(service)}ContractResolver`]: class {} }[`${pascal(service)}ContractResolver`]!;
  for (const contract of contracts) {
    if (contract.kind !== 'query' && contract.kind !== 'mutation') continue;
    rootField(cls, contract, contract.name, runtime);
    // A root field released under another name this operation now answers (an operation that had a twin per access kind).
    for (const alias of operationAliasesOf(contract)) {
      rootField(cls, contract, alias, runtime, operationAliasDeprecation(contract.name));
    }
  }
  refusalField(cls, service, contracts, runtime);
  callerCheckField(cls, service, contracts, runtime);
  Resolver()(cls);
  return cls;
}

/** One root field answered by an operation: its own, or a deprecated alias of it. */
function rootField(
  cls: ClassType,
  contract: OperationContract,
  name: string,
  runtime: () => ContractRuntime,
  deprecationReason?: string,
): void {
  let read: (params: unknown[]) => ReadArgs = () => ({ args: {}, conflicts: [] });
  const descriptor = method(cls, name, (...params: unknown[]) => {
    const ctx = params.at(-1) as SubgraphContext;
    const { args, conflicts } = read(params);
    if (conflicts.length > 0) return runtime().pipeline.refuse(contract, ctx, conflictIssues(contract, conflicts));
    return runtime().pipeline.run(contract, ctx, args);
  });
  read = declareArgs(cls, name, contract.args.shape, pascal(contract.name), 0, contract.name);
  const { type, nullable } = graphqlTypes.fieldType(contract.output, `${pascal(contract.name)}Result`, 'output');
  const description = [contract.summary, contract.description].filter(Boolean).join('. ');
  const refusable = contract.access.some((access) => access.kind !== 'public');
  const options = {
    name,
    description,
    nullable: contract.nullable || nullable || refusable,
    ...(deprecationReason ? { deprecationReason } : {}),
  };
  (contract.kind === 'query' ? Query : Mutation)(type as never, options)(cls.prototype, name, descriptor);
}

/** `<service>InputRefusal(operation, issues)`: always an error — the one the service answers for that input. */
function refusalField(cls: ClassType, service: ServiceName, contracts: readonly OperationContract[], runtime: () => ContractRuntime): void {
  const name = refusalFieldOf(service);
  const byName = new Map(contracts.map((contract) => [contract.name, contract]));
  const descriptor = method(cls, name, (operation: unknown, issues: unknown, issueCount: unknown, ctx: unknown) => {
    const contract = byName.get(String(operation));
    if (!contract) throw new Error(`no operation ${String(operation)}`);
    const count = typeof issueCount === 'number' ? issueCount : undefined;
    return runtime().pipeline.refuse(contract, ctx as SubgraphContext, issues as InputIssue[], count);
  });
  Arg('operation', () => String)(cls.prototype, name, 0);
  Arg('issues', () => GraphQLJSON)(cls.prototype, name, 1);
  Arg('issueCount', () => Int, { nullable: true, description: 'How many problems there were, when `issues` lists only the first.' })(
    cls.prototype,
    name,
    2,
  );
  Ctx()(cls.prototype, name, 3);
  const description = 'Internal: how the REST edge has this service refuse input it found invalid. Always answers with an error.';
  Query(() => Boolean, { name, nullable: true, description })(cls.prototype, name, descriptor);
  Directive('@inaccessible')(cls.prototype, name, descriptor);
}

/**
 * `<service>CallerCheck(operation)`: true when the caller may call the operation's access kind; counts and runs nothing.
 * For a route the edge answers alone it admits the call instead, counting it as its access counts such calls.
 */
function callerCheckField(
  cls: ClassType,
  service: ServiceName,
  contracts: readonly OperationContract[],
  runtime: () => ContractRuntime,
): void {
  const name = callerCheckFieldOf(service);
  const byName = new Map(contracts.map((contract) => [contract.name, contract]));
  const descriptor = method(cls, name, async (operation: unknown, ctx: unknown) => {
    const contract = byName.get(String(operation));
    if (!contract) throw new Error(`no operation ${String(operation)}`);
    if (contract.kind === 'edge') await runtime().pipeline.admitEdge(contract, ctx as SubgraphContext);
    else await runtime().pipeline.authenticate(contract, ctx as SubgraphContext);
    return true;
  });
  Arg('operation', () => String)(cls.prototype, name, 0);
  Ctx()(cls.prototype, name, 1);
  const description =
    'Internal: authenticates the caller as the named operation’s access would, counting and running nothing (MCP endpoints answer 401 with it); for a route the edge answers alone, admits the call as its access counts it (per client address).';
  Query(() => Boolean, { name, nullable: true, description })(cls.prototype, name, descriptor);
  Directive('@inaccessible')(cls.prototype, name, descriptor);
}

/** Object schemas reachable from the outputs, each once. */
function objectSchemas(roots: readonly z.ZodType[]): z.ZodObject[] {
  const seen = new Set<z.ZodType>();
  const found: z.ZodObject[] = [];
  const visit = (schema: z.ZodType) => {
    const kind = kindOf(unwrap(schema).base);
    if (kind.kind === 'list') return visit(kind.item);
    if (kind.kind !== 'object') return;
    const base = unwrap(schema).base;
    if (seen.has(base)) return;
    seen.add(base);
    found.push(base as z.ZodObject);
    for (const field of Object.values(kind.shape)) visit(field);
  };
  roots.forEach(visit);
  return found;
}

/** Field resolvers of output fields declared with arguments (`.meta({ args })`), in the outputs and the subgraph's entities. */
function fieldResolvers(roots: readonly z.ZodType[], runtime: () => ContractRuntime): ClassType[] {
  const resolvers: ClassType[] = [];
  for (const schema of objectSchemas(roots)) {
    for (const [field, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const args = fieldArgs(fieldSchema);
      if (!args) continue;
      const owner = graphqlTypes.objectClass(schema, 'Unnamed');
      const name = `${owner.name}${pascal(field)}Resolver`;
      const cls = { [name]: class {} }[name]!;
      const argsSchema = z.object(args);
      let read: (params: unknown[]) => ReadArgs = () => ({ args: {}, conflicts: [] });
      const descriptor = method(cls, field, (...params: unknown[]) => {
        const implementation = runtime().fields.get(schema)?.fields[field];
        if (!implementation) throw new Error(`no resolver for ${owner.name}.${field}`);
        const { args, conflicts } = read(params);
        if (conflicts.length > 0)
          throw new GraphQLError(conflicts.map(({ name, alias }) => `give ${name} or its deprecated alias ${alias}, not both`).join('; '), {
            extensions: { code: wireCode(CommonErrorCode.BAD_USER_INPUT) },
          });
        return implementation(params[0] as never, argsSchema.parse(args) as never, params.at(-1) as SubgraphContext);
      });
      Root()(cls.prototype, field, 0);
      read = declareArgs(cls, field, args, `${owner.name}${pascal(field)}`, 1, `${owner.name}.${graphqlName(field)}`);
      const { type, nullable } = graphqlTypes.fieldType(fieldSchema, `${owner.name}${pascal(field)}`, 'output');
      FieldResolver(type as never, { name: graphqlName(field), nullable, description: describeSchema(fieldSchema) })(
        cls.prototype,
        field,
        descriptor,
      );
      Resolver(() => owner)(cls);
      resolvers.push(cls);
    }
  }
  return resolvers;
}

/** Every generated resolver of a service; `entities` are types it shares with other subgraphs (federation entities). */
export function contractResolverClasses(
  service: ServiceName,
  contracts: readonly OperationContract[],
  runtime: () => ContractRuntime,
  entities: readonly z.ZodType[] = [],
): ClassType[] {
  const roots = [...contracts.map((contract) => contract.output), ...entities];
  return [operationResolver(service, contracts, runtime), ...fieldResolvers(roots, runtime)];
}
