import type { Context } from 'koa';
import { accessOfKind } from '../contracts/access.js';
import { MAX_LISTED_PROBLEMS } from '../contracts/errors.js';
import { fromGraphQLNames, toGraphQLNames } from '../contracts/graphql-names.js';
import { validateInput, type InputIssue } from '../contracts/input.js';
import {
  callerCheckOperationOf,
  operationNameOf,
  refusalOperationOf,
  type OperationContract,
  type ServiceName,
  type WireRequest,
} from '../contracts/operation.js';
import type { GatewayContext } from '../gateway/context.js';
import type { InternalExecutor } from '../gateway/create-gateway.js';
import type { NamedOperationExecutor } from '../gateway/named-operations.js';
import { edgeHeaders } from '../gateway/edge-headers.js';
import { FacadeError } from './facade-error.js';

export interface RunnerDeps {
  /** Runs the committed named operations through the gateway, prepared at start-up (the gateway's `prepare`). */
  readonly named: NamedOperationExecutor;
  /** Runs the edge's internal operations (refusal, caller check) on the owning subgraph. */
  readonly internal: InternalExecutor;
  /** The committed named operations, by name. */
  readonly operations: ReadonlyMap<string, string>;
  readonly contextFor: (ctx: Context) => GatewayContext;
  /** What a contract's responder sees of the request. */
  readonly wireRequest: (ctx: Context, service: ServiceName, input: Record<string, unknown>, body: unknown) => WireRequest;
}

/** The validated input as GraphQL variables (the named operation declares those it uses). */
export function variablesOf(input: Record<string, unknown>): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) if (value !== undefined) variables[name] = value;
  return variables;
}

/**
 * How the edge runs a contract, for REST routes and MCP tools alike: its committed named
 * GraphQL operation through the gateway, so every caller passes the same validation,
 * guard, quota and service, and the subgraphs' edge facts (rate-limit windows) become
 * response headers. Failures come back as `FacadeError`s in no family's shape yet.
 */
export class OperationRunner {
  constructor(private readonly deps: RunnerDeps) {}

  private document(name: string): string {
    const document = this.deps.operations.get(name);
    if (!document) throw new Error(`no named operation ${name}`);
    return document;
  }

  /** Runs one named operation through the gateway; its first GraphQL error is thrown. */
  async execute(ctx: Context, name: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
    const contextValue = this.deps.contextFor(ctx);
    const result = await this.deps.named(name, variables, contextValue);
    for (const [header, value] of Object.entries(edgeHeaders(contextValue.subgraphExtensions))) ctx.set(header, value);
    return this.dataOrFirstError(result);
  }

  /** Runs one of the edge's internal named operations on the service's own subgraph; its first GraphQL error is thrown. */
  async executeInternal(ctx: Context, service: ServiceName, name: string, variables: Record<string, unknown>): Promise<void> {
    const contextValue = this.deps.contextFor(ctx);
    const result = await this.deps.internal(service, { query: this.document(name), operationName: name, variables }, contextValue);
    for (const [header, value] of Object.entries(edgeHeaders(contextValue.subgraphExtensions))) ctx.set(header, value);
    this.dataOrFirstError(result);
  }

  private dataOrFirstError(result: {
    readonly data?: Record<string, unknown> | null;
    readonly errors?: ReadonlyArray<Parameters<typeof FacadeError.fromGraphQL>[0]>;
  }): Record<string, unknown> {
    const firstError = result.errors?.[0];
    if (firstError) throw FacadeError.fromGraphQL(firstError);
    return (result.data ?? {}) as Record<string, unknown>;
  }

  /**
   * Invalid input found at the edge is refused by the operation's own service, as if it
   * had found it: its guard authenticates first (a missing key answers 401 before bad
   * input does) and reports its edge facts, then the service's refusal comes back.
   */
  async refuse(ctx: Context, contract: OperationContract, issues: readonly InputIssue[]): Promise<never> {
    // Only the problems a refusal lists cross to the service, with how many there were.
    const listed = issues.slice(0, MAX_LISTED_PROBLEMS);
    await this.executeInternal(ctx, contract.service, refusalOperationOf(contract.service), {
      operation: contract.name,
      issues: listed,
      issueCount: issues.length,
    });
    throw FacadeError.internal();
  }

  /**
   * The result of a query or mutation for validated input: variables by their GraphQL names,
   * the data keyed back as the contract's output schema is (its wire names).
   */
  async result(ctx: Context, contract: OperationContract, input: Record<string, unknown>): Promise<unknown> {
    const variables = toGraphQLNames(contract.wireArgs, variablesOf(input)) as Record<string, unknown>;
    const data = await this.execute(ctx, operationNameOf(contract.name), variables);
    return fromGraphQLNames(contract.output, data[contract.name]);
  }

  /**
   * Validates arguments named as GraphQL names them (MCP) — those of the named operation,
   * REST-only switches included — refusing invalid ones through the service, then runs it.
   */
  async run(
    ctx: Context,
    contract: OperationContract,
    args: Record<string, unknown>,
  ): Promise<{ input: Record<string, unknown>; data: unknown }> {
    // A tool's arguments are held to its published input schema, lenient REST fields included,
    // and problems name the arguments as that schema does.
    const validation = validateInput<Record<string, unknown>>(contract, args, { wire: true, strict: true, argumentNames: true });
    if (!validation.ok) return this.refuse(ctx, contract, validation.issues);
    return { input: validation.value, data: await this.result(ctx, contract, validation.value) };
  }

  /**
   * What an MCP tool call or resource read answers: the operation run for its arguments,
   * then the body its (first) REST route would send, links under `{api_url}` — or its data
   * when the route writes none.
   */
  async answer(ctx: Context, contract: OperationContract, args: Record<string, unknown>): Promise<unknown> {
    const { input, data } = await this.run(ctx, contract, args);
    const binding = contract.rest[0];
    if (!binding?.respond) return data;
    return (await binding.respond(data as never, this.wireRequest(ctx, contract.service, input, args))).body;
  }

  /** What a contract's responder sees of the request. */
  wireRequest(ctx: Context, service: ServiceName, input: Record<string, unknown>, body: unknown): WireRequest {
    return this.deps.wireRequest(ctx, service, input, body);
  }

  /**
   * Admits a call of a route the edge answers alone whose access is counted per client
   * address: its service counts it and reports the windows (headers), or refuses it.
   */
  async admitEdge(ctx: Context, contract: OperationContract): Promise<void> {
    if (!accessOfKind(contract.access, 'public')?.perAddress) return;
    await this.executeInternal(ctx, contract.service, callerCheckOperationOf(contract.service), { operation: contract.name });
  }

  /** Authenticates the caller as the contract's access would, counting and running nothing. */
  async authenticate(ctx: Context, contract: OperationContract): Promise<void> {
    await this.executeInternal(ctx, contract.service, callerCheckOperationOf(contract.service), { operation: contract.name });
  }
}
