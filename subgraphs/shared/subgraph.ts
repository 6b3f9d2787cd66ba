import 'reflect-metadata';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import type { z } from 'zod';
import { entityKey, kindOf, unwrap } from '../../contracts/schema-shape.js';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { parse, type GraphQLSchema } from 'graphql';
import type { Middleware } from 'koa';
import { buildSchema, createResolversMap, type ClassType } from 'type-graphql';
import type { OperationContract } from '../../contracts/operation.js';
import { SUBSCRIPTIONS } from '../../contracts/registry.js';
import type { Config, SubgraphName } from '../../runtime/config.js';
import type { Logger } from '../../runtime/logger.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestHeaders, SubgraphContext } from './context.js';
import type { Bindings } from './contracts/implementation.js';
import { graphqlTypes } from './contracts/graphql-types.js';
import { contractResolverClasses, type ContractRuntime } from './contracts/resolvers.js';
import { subscriptionResolvers, subscriptionTypeDefs } from './contracts/subscription-fields.js';
import type { SubgraphDatabase, SubgraphOrm } from './orm.js';
import type { QueueHub } from './queues/queue-hub.js';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag"])';

/** Everything a process needs to know to run one subgraph's domain. */
export interface SubgraphRuntime {
  readonly config: Config;
  readonly orm: SubgraphOrm;
  readonly database: SubgraphDatabase;
  readonly logger: Logger;
  /** The subgraph's job queues in this process; consumers declared on it start after `onReady` where the role runs them. */
  readonly queues: QueueHub;
  /** Where clients reach this deployment (e.g. to name the issuer whose tokens it trusts); read it per request, not at start. */
  readonly origin: PublicOrigin;
}

/** The services of a module, found by class. */
export interface Services {
  get<T extends object>(cls: ClassType<T>): T;
}

/**
 * One subgraph: its operations (contracts), its database, and how its services serve
 * the operations. Its GraphQL schema is generated from the contracts; `createServices`
 * builds the domain services once per process and `bind` hands them to the contracts.
 */
export interface SubgraphModule {
  readonly name: SubgraphName;
  readonly database: SubgraphDatabase;
  /** Every operation of the service (edge-only ones included; they have no GraphQL field). */
  readonly contracts: readonly OperationContract[];
  /**
   * Federation entities (`.meta({ key })`) the subgraph declares besides those its outputs
   * reach, e.g. `User` where it only adds fields; they are in its schema whatever the
   * operations return (docs/adr/0039-shared-entities.md).
   */
  readonly entities?: readonly z.ZodObject[];
  /** Builds the services, once per process. */
  readonly createServices: (runtime: SubgraphRuntime) => readonly object[];
  /** Service methods, guards and wrappers for the contracts. */
  readonly bind: (services: Services, runtime: SubgraphRuntime) => Bindings;
  /**
   * HTTP the module serves besides its operations (e.g. the operations service's OpenID
   * provider under `/oidc`): each mount answers every request under its prefix. The facade
   * serves them in the all-in-one role, the subgraph server in `subgraph:<name>`; behind a
   * separate gateway the reverse proxy routes the prefixes to the subgraph's process.
   * Called once per serving process, when its HTTP app is made.
   */
  readonly http?: (services: Services, runtime: SubgraphRuntime, origin: PublicOrigin) => readonly HttpMount[];
  /** Work done once after migrations, e.g. loading the demo library; `run` calls the module's own operations. */
  readonly onReady?: (runtime: SubgraphRuntime, services: Services, run: RunOperation) => Promise<void>;
  /** Work done before the database closes, e.g. stopping what `onReady` started in these services. */
  readonly onClose?: (services: Services) => Promise<void>;
}

/**
 * Runs one of the subgraph's own operations in-process through its pipeline — input validated by
 * the contract, the caller admitted by its guard from `headers`, the service method inside the
 * module's wrapper — as a request with those headers would, on `em` (a transaction of the caller's
 * makes the calls part of it). For work the process does as a user, e.g. making demo records.
 */
export type RunOperation = (
  contract: OperationContract,
  args: Record<string, unknown>,
  request: { readonly em: EntityManager; readonly headers: RequestHeaders },
) => Promise<unknown>;

/**
 * Where clients reach the process: `PUBLIC_BASE_URL`, else the origin its server is bound
 * to (never a request's `Host`). Known once the server listens; calling it earlier throws.
 */
export type PublicOrigin = () => string;

/** Non-GraphQL HTTP of a module: the middleware answers every request whose path is `prefix` or under it. */
export interface HttpMount {
  /** A path prefix such as `/oidc` (no trailing slash). */
  readonly prefix: string;
  readonly middleware: Middleware;
}

/**
 * One middleware serving the mounts: a request under a mount's prefix goes to it (and
 * `ctx.state.route` names the prefix, for metrics); any other goes on.
 */
export function serveMounts(mounts: readonly HttpMount[]): Middleware {
  for (const mount of mounts) {
    if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(mount.prefix)) throw new Error(`invalid HTTP mount prefix ${mount.prefix}`);
  }
  return async (ctx, next) => {
    const mount = mounts.find(({ prefix }) => ctx.path === prefix || ctx.path.startsWith(`${prefix}/`));
    if (!mount) return next();
    ctx.state.route ??= `${mount.prefix}/*`;
    return mount.middleware(ctx, next);
  };
}

const notRunning = (): ContractRuntime => {
  throw new Error('this schema was built to be printed, not to run operations');
};

/**
 * Builds the federated schema of a subgraph: type-graphql builds the generated
 * resolvers of its contracts and prints the SDL with directives, its subscriptions are
 * declared (they are served by the gateway over graphql-ws), `@apollo/subgraph`
 * adds the federation fields, and the resolver map (plus `__resolveReference`s) is
 * attached. Without a runtime the schema can only be printed.
 */
export async function buildSubgraph(module: SubgraphModule, runtime: () => ContractRuntime = notRunning): Promise<GraphQLSchema> {
  const entities = module.entities ?? [];
  const resolvers = contractResolverClasses(module.name, module.contracts, runtime, entities);
  const schema = await buildSchema({
    resolvers: resolvers as [ClassType, ...ClassType[]],
    orphanedTypes: entities.map((entity) => graphqlTypes.objectClass(entity, 'Unnamed')),
    skipCheck: true,
    validate: false,
    container: { get: (someClass: ClassType) => new someClass() },
  });
  const subscriptions = SUBSCRIPTIONS.filter((subscription) => subscription.service === module.name);
  const typeDefs = parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}\n${subscriptionTypeDefs(schema, subscriptions)}`);
  const resolverMap = createResolversMap(schema) as GraphQLResolverMap<SubgraphContext>;
  if (subscriptions.length > 0) resolverMap.Subscription = subscriptionResolvers(subscriptions) as never;
  for (const entity of entityTypes(module)) {
    const typeName = graphqlTypes.objectClass(entity, 'Unnamed').name;
    const resolveReference = (reference: Record<string, unknown>, ctx: SubgraphContext) => {
      const implementation = runtime().entities.get(entity);
      return implementation ? implementation.resolveReference(reference, ctx) : reference;
    };
    resolverMap[typeName] = { ...(resolverMap[typeName] as object), __resolveReference: resolveReference } as never;
  }
  return buildSubgraphSchema([{ typeDefs, resolvers: resolverMap }]);
}

/** The entity types of a module: those it declares and those its operations' outputs reach. */
function entityTypes(module: SubgraphModule): z.ZodObject[] {
  const found = new Set<z.ZodObject>(module.entities ?? []);
  const visit = (schema: z.ZodType, seen: Set<z.ZodType>) => {
    const { base } = unwrap(schema);
    if (seen.has(base)) return;
    seen.add(base);
    const kind = kindOf(base);
    if (kind.kind === 'list') return visit(kind.item, seen);
    if (kind.kind !== 'object') return;
    if (entityKey(base)) found.add(base as z.ZodObject);
    for (const field of Object.values(kind.shape)) visit(field, seen);
  };
  const seen = new Set<z.ZodType>();
  for (const contract of module.contracts) visit(contract.output, seen);
  return [...found];
}

/** The services of a module, keyed by their class. */
export function serviceLookup(owner: string, services: readonly object[]): Services {
  const byClass = new Map(services.map((service) => [service.constructor, service]));
  return {
    get<T extends object>(cls: ClassType<T>): T {
      const found = byClass.get(cls);
      if (found === undefined) throw new Error(`${owner} has no ${cls.name}`);
      return found as T;
    },
  };
}
