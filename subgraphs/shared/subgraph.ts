import 'reflect-metadata';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { parse, type GraphQLSchema } from 'graphql';
import { buildSchema, createResolversMap, type ClassType, type NonEmptyArray } from 'type-graphql';
import type { Config, SubgraphName } from '../../runtime/config.js';
import type { Logger } from '../../runtime/logger.js';
import type { SubgraphContext } from './context.js';
import type { SubgraphDatabase, SubgraphOrm } from './orm.js';
import type { StreamOperation } from './streams.js';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag"])';

/** Everything a process needs to know to run one subgraph's domain. */
export interface SubgraphRuntime {
  readonly config: Config;
  readonly orm: SubgraphOrm;
  readonly database: SubgraphDatabase;
  readonly logger: Logger;
}

/**
 * One subgraph: its schema pieces and database. `createServices` builds the domain
 * services once per process; resolvers get them through a container keyed by class.
 */
export interface SubgraphModule {
  readonly name: SubgraphName;
  readonly database: SubgraphDatabase;
  readonly resolvers: NonEmptyArray<ClassType>;
  readonly orphanedTypes?: ClassType[];
  readonly referenceResolvers?: GraphQLResolverMap<SubgraphContext>;
  /** Builds the services resolvers ask for, once per process. */
  readonly createServices: (runtime: SubgraphRuntime) => ReadonlyMap<ClassType, unknown>;
  /** Named streaming operations beside the schema (`subgraphs/shared/streams.ts`), e.g. chat completions. */
  readonly streams?: Readonly<Record<string, StreamOperation>>;
  /** Work done once after migrations, e.g. loading the demo library. */
  readonly onReady?: (runtime: SubgraphRuntime) => Promise<void>;
  readonly onClose?: () => Promise<void>;
}

/**
 * Builds the federated schema (with no services when it is only printed) of a subgraph: type-graphql prints the SDL with
 * directives, `@apollo/subgraph` adds the federation fields, and type-graphql's
 * resolver map (plus `__resolveReference`s) are attached.
 */
export async function buildSubgraph(module: SubgraphModule, services: ReadonlyMap<ClassType, unknown> = new Map()): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: module.resolvers,
    orphanedTypes: module.orphanedTypes,
    skipCheck: true,
    validate: false,
    container: {
      get: (someClass: ClassType) => {
        const instance = services.get(someClass);
        if (instance !== undefined) return instance;
        return new someClass(...servicesFor(services, someClass.name, (someClass as { inject?: ClassType[] }).inject ?? []));
      },
    },
  });
  const typeDefs = parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`);
  const resolvers = createResolversMap(schema) as GraphQLResolverMap<SubgraphContext>;
  for (const [typeName, fields] of Object.entries(module.referenceResolvers ?? {})) {
    resolvers[typeName] = { ...(resolvers[typeName] as object), ...(fields as object) } as never;
  }
  return buildSubgraphSchema([{ typeDefs, resolvers }]);
}

/** The services `owner` asks for (a resolver's static `inject` list, a stream's `inject`), matched by class. */
export function servicesFor(services: ReadonlyMap<ClassType, unknown>, owner: string, wanted: readonly ClassType[]): unknown[] {
  return wanted.map((dependency) => {
    const service = services.get(dependency);
    if (service === undefined) throw new Error(`${owner} needs ${dependency.name}, which is not provided`);
    return service;
  });
}

/** The services of a module, keyed by their class for resolvers' `inject` lists. */
export function serviceMap(...services: object[]): ReadonlyMap<ClassType, unknown> {
  return new Map(services.map((service) => [service.constructor as ClassType, service]));
}
