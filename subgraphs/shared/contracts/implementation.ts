import type { z } from 'zod';
import type { Access, AccessKind } from '../../../contracts/access.js';
import type { ContractInput, ContractOutput, OperationContract } from '../../../contracts/operation.js';
import type { ReferenceValue } from '../../../contracts/references.js';
import type { SubgraphContext } from '../context.js';

/**
 * How a subgraph serves its contracts: a service method per operation, one guard per
 * access kind, field resolvers for output fields that take arguments, and an optional
 * wrapper around every call (transactions, tenancy, idempotency). Bindings are made
 * once per process, after the services exist.
 */

/**
 * The caller each access kind admits, filled in by the services owning the kinds
 * (declaration merging), e.g. `libraryKey: Caller`.
 */
export interface Callers {
  public: undefined;
}

/** The kinds of a contract's access, as one union: a caller of an operation with several kinds is any of theirs. */
type AccessOf<C> = C extends { readonly access: ReadonlyArray<infer A> } ? A : never;
export type CallerFor<C> = AccessOf<C> extends { readonly kind: infer K } ? (K extends keyof Callers ? Callers[K] : unknown) : unknown;

export interface OperationCall<C = OperationContract> {
  readonly ctx: SubgraphContext;
  readonly caller: CallerFor<C>;
}

/**
 * What a service method may return for a result type: read-only arrays and objects,
 * and `undefined` where the result has `null` (both are null in GraphQL).
 */
export type Loose<T> =
  T extends ReadonlyArray<infer U>
    ? ReadonlyArray<Loose<U>>
    : T extends object
      ? { readonly [K in keyof T]: Loose<T[K]> }
      : T extends null
        ? T | undefined
        : T;

export type Handler<C> = (input: ContractInput<C>, call: OperationCall<C>) => Promise<Loose<ContractOutput<C>>> | Loose<ContractOutput<C>>;

export type StreamHandler<C> = (
  input: ContractInput<C>,
  call: OperationCall<C>,
  signal: AbortSignal,
  /** The raw body of an upload, read as it arrives; absent otherwise. */
  body?: AsyncIterable<Uint8Array>,
) => AsyncIterable<unknown>;

export interface Implementation {
  readonly contract: OperationContract;
  readonly handler?: Handler<OperationContract>;
  readonly stream?: StreamHandler<OperationContract>;
}

/** Serves a query or mutation with a service method. */
export function implement<C extends OperationContract>(contract: C, handler: Handler<C>): Implementation {
  if (contract.kind !== 'query' && contract.kind !== 'mutation')
    throw new Error(`${contract.name} is a ${contract.kind}, not a GraphQL field`);
  return { contract, handler: handler as unknown as Handler<OperationContract> };
}

/** Serves a streaming operation (its REST stream, or an upload) with a service method. */
export function implementStream<C extends OperationContract>(contract: C, stream: StreamHandler<C>): Implementation {
  return { contract, stream: stream as unknown as StreamHandler<OperationContract> };
}

export type FieldResolverFn = (root: never, args: never, ctx: SubgraphContext) => unknown;

/** Resolvers of output fields declared with `.meta({ args })`, by field name. */
export interface FieldImplementation {
  readonly type: z.ZodObject;
  readonly fields: Readonly<Record<string, FieldResolverFn>>;
}

export function implementFields<T extends z.ZodObject>(
  type: T,
  fields: { readonly [K in keyof z.output<T>]?: (root: z.output<T>, args: never, ctx: SubgraphContext) => unknown },
): FieldImplementation {
  return { type, fields: fields as Record<string, FieldResolverFn> };
}

/**
 * How a subgraph finds one of its entities from a representation another subgraph
 * handed the gateway (`__resolveReference`): the object, `null` when there is none, or
 * an error (null with the error at its path). Batch with a per-request DataLoader: the
 * gateway sends every representation of one level in one `_entities` call.
 */
export interface EntityImplementation {
  readonly type: z.ZodObject;
  readonly resolveReference: (reference: Readonly<Record<string, unknown>>, ctx: SubgraphContext) => unknown;
}

export function implementEntity<T extends z.ZodObject>(
  type: T,
  resolveReference: (reference: Readonly<Record<string, unknown>>, ctx: SubgraphContext) => unknown,
): EntityImplementation {
  return { type, resolveReference };
}

/** Admits calls of one access kind. */
export interface Guard<A extends Access = Access> {
  /**
   * Whether the request carries this kind's credential (valid or not), reading headers only:
   * how the pipeline picks the kind of an operation that lists several. A guard without it
   * serves only operations of its one kind (docs/adr/0046).
   */
  presents?(ctx: SubgraphContext): boolean;
  /** Authenticates, authorizes and (for metered kinds) counts the call; returns the caller. */
  admit(ctx: SubgraphContext, access: A, contract: OperationContract): Promise<unknown>;
  /**
   * Runs instead of `admit` when the input is invalid: authenticates without side
   * effects, so a missing credential answers before bad input does, and edge facts
   * (rate-limit windows) reach the refusal too.
   */
  refuse?(ctx: SubgraphContext, access: A, contract: OperationContract): Promise<void>;
  /**
   * Gives back what `admit` counted when the service itself then refuses the input
   * (a 422 it alone can judge, e.g. a model this deployment does not serve), so no
   * refused input is ever counted, wherever it was found.
   */
  refund?(ctx: SubgraphContext, access: A, caller: unknown): Promise<void>;
  /**
   * Admits a call of a route the edge answers alone (`kind: 'edge'`), counting what the
   * access counts for it (the library's per-address limit of open routes); nothing runs.
   */
  admitEdge?(ctx: SubgraphContext, access: A, contract: OperationContract): Promise<void>;
}

export type Guards = { readonly [K in AccessKind]?: Guard<Extract<Access, { kind: K }>> };

/** Runs around every admitted call: `next` runs the service method (e.g. inside a tenant transaction). */
export type Around = (
  contract: OperationContract,
  call: OperationCall,
  next: (call: OperationCall) => Promise<unknown>,
  /** The validated input, e.g. to recognise a repeated idempotent request. */
  input: unknown,
) => Promise<unknown>;

/** Counts an attempt against the contract's throttles (whatever its outcome); throws 429 past a limit. */
export type Throttler = (contract: OperationContract, ctx: SubgraphContext, input: Record<string, unknown>) => Promise<void>;

/**
 * Judges the ids an input names by its contract's declared references (`contracts/references.ts`).
 * Runs inside `around`, before the service method, so it sees what the call may see. A refused
 * call has run its service method (see the pipeline), so bind a check only beside an `around`
 * that runs each call in one transaction: the refusal undoes the call's work.
 */
export interface ReferenceCheck {
  /** The refusal for the first id that names no record the caller may see; undefined when all do. */
  unseen(values: readonly ReferenceValue[], call: OperationCall, contract: OperationContract): Promise<Error | undefined>;
  /** Whether the service failed only because the database found no such record (a foreign-key violation). */
  dangling(error: unknown): boolean;
}

export interface Bindings {
  readonly implementations: readonly Implementation[];
  readonly guards: Guards;
  /** Serves contracts that declare `throttle`; a subgraph with such a contract and none does not start. */
  readonly throttle?: Throttler;
  readonly fields?: readonly FieldImplementation[];
  /** Entities the subgraph resolves by key; an entity without one is its own representation (it only adds fields). */
  readonly entities?: readonly EntityImplementation[];
  readonly around?: Around;
  /** Checks the ids of declared references; without it, declared references are not checked. */
  readonly references?: ReferenceCheck;
}
