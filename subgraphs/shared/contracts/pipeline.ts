import { ACCESS_KINDS_HEADER, type Access, type AccessKind } from '../../../contracts/access.js';
import { DomainError } from '../../../contracts/errors.js';
import { validateInput, type InputIssue } from '../../../contracts/input.js';
import type { OperationContract } from '../../../contracts/operation.js';
import { referenceValues } from '../../../contracts/references.js';
import { refusalOf } from '../../../contracts/refusals.js';
import type { SubgraphContext } from '../context.js';
import type { Bindings, Guard, Implementation, OperationCall } from './implementation.js';

export type CallOutcome = 'ok' | 'replayed' | 'refused' | 'failed';

/**
 * The one path every operation of a subgraph takes, whoever calls (GraphQL, REST
 * through the gateway, MCP, a stream): its input is validated by its contract; then
 * its access kind's guard admits the caller — or, for invalid input, only
 * authenticates, so a missing credential answers first and is never counted — and the
 * bound service method runs inside the subgraph's `around` wrapper. An operation that
 * lists several access kinds is judged by the first whose credential the request carries,
 * else by the first listed (`accessFor`, docs/adr/0046).
 */
export class OperationPipeline {
  private readonly implementations = new Map<string, Implementation>();
  private readonly streams = new Map<string, Implementation>();

  constructor(
    private readonly contracts: readonly OperationContract[],
    private readonly bindings: Bindings,
    /** Told the outcome of every call (metrics). */
    private readonly count: (contract: OperationContract, outcome: CallOutcome) => void = () => undefined,
  ) {
    for (const implementation of bindings.implementations) {
      const { contract } = implementation;
      if (implementation.handler) this.implementations.set(contract.name, implementation);
      if (implementation.stream) this.streams.set(streamName(contract), implementation);
    }
    this.check();
  }

  /** Every operation is served and every access kind guarded, or the process does not start. */
  private check(): void {
    for (const contract of this.contracts) {
      if (!contract.access?.length) throw new Error(`operation ${contract.name} declares no access`);
      if (contract.kind === 'edge') continue;
      if (contract.throttle.length > 0 && !this.bindings.throttle) throw new Error(`operation ${contract.name}: no throttle serves it`);
      for (const { kind } of contract.access) {
        const guard = this.bindings.guards[kind];
        if (!guard) throw new Error(`operation ${contract.name}: no guard serves access ${kind}`);
        if (contract.access.length > 1 && kind !== 'public' && !guard.presents) {
          throw new Error(`operation ${contract.name}: the guard of access ${kind} cannot tell whether its credential was sent`);
        }
      }
      const served = contract.kind === 'stream' ? this.streams.has(contract.name) : this.implementations.has(contract.name);
      if (!served) throw new Error(`operation ${contract.name} has no implementation`);
      for (const binding of contract.rest) {
        if (binding.stream && !this.streams.has(binding.stream.operation)) {
          throw new Error(`operation ${contract.name}: no implementation of its stream ${binding.stream.operation}`);
        }
      }
    }
  }

  private guard(kind: AccessKind): Guard {
    return this.bindings.guards[kind] as Guard;
  }

  /**
   * The access a call of the operation is judged by. Of the kinds the call may use — every
   * kind the contract lists, or those the edge names for the REST route it came through
   * (`x-access-kinds: <operation>=<kind>,…`, a route bound with `accepts`) — the first whose
   * credential the request carries (public needs none), else the first: a caller without
   * credentials is refused as that kind refuses it.
   */
  accessFor(contract: OperationContract, ctx: SubgraphContext): Access {
    const kinds = routeKinds(contract, ctx.headers[ACCESS_KINDS_HEADER]);
    if (kinds.length === 1) return kinds[0]!;
    return kinds.find((access) => access.kind === 'public' || this.guard(access.kind).presents?.(ctx)) ?? kinds[0]!;
  }

  /** Whether a streaming operation of this name is served here. */
  hasStream(name: string): boolean {
    return this.streams.has(name);
  }

  /** Validates, admits and runs one operation, counting its outcome. */
  async run(contract: OperationContract, ctx: SubgraphContext, args: Record<string, unknown>): Promise<unknown> {
    try {
      const result = await this.execute(contract, ctx, args);
      this.count(contract, ctx.extensions.idempotentReplayed === true ? 'replayed' : 'ok');
      return result;
    } catch (error) {
      this.count(contract, error instanceof DomainError && error.status < 500 ? 'refused' : 'failed');
      throw error;
    }
  }

  private async execute(contract: OperationContract, ctx: SubgraphContext, args: Record<string, unknown>): Promise<unknown> {
    const implementation = this.implementations.get(contract.name);
    if (!implementation?.handler) throw new Error(`operation ${contract.name} has no implementation`);
    const { input, call } = await this.admit(contract, ctx, args);
    const handler = implementation.handler;
    const run = async (admitted: OperationCall) => handler(input as never, admitted as never);
    const next = this.bindings.references ? (admitted: OperationCall) => this.checkingReferences(contract, input, admitted, run) : run;
    try {
      return await (this.bindings.around ? this.bindings.around(contract, call, next, input) : next(call));
    } catch (error) {
      await this.refundRefusal(contract, call, error);
      throw error;
    }
  }

  /**
   * Runs the service with the ids its input names checked: each must name a record the
   * caller may see. An id that does not is refused — but only after the service had its
   * say, so an answer the service gives first (the path's record is missing, its own
   * check of the reference) stays what it was; the refusal replaces a success or a
   * foreign-key violation, and the transaction is rolled back. A record of another
   * organization is thus refused exactly like one that does not exist.
   */
  private async checkingReferences(
    contract: OperationContract,
    input: unknown,
    call: OperationCall,
    run: (call: OperationCall) => Promise<unknown>,
  ): Promise<unknown> {
    const check = this.bindings.references!;
    const values = referenceValues(contract, input);
    const refusal = values.length > 0 ? await check.unseen(values, call, contract) : undefined;
    if (!refusal) return run(call);
    try {
      await run(call);
    } catch (error) {
      if (!check.dangling(error)) throw error;
    }
    throw refusal;
  }

  /** Validates and admits a streaming operation, then opens its events. */
  async openStream(
    name: string,
    ctx: SubgraphContext,
    args: Record<string, unknown>,
    signal: AbortSignal,
    body?: AsyncIterable<Uint8Array>,
  ): Promise<AsyncIterable<unknown>> {
    const implementation = this.streams.get(name);
    if (!implementation?.stream) throw new Error(`stream ${name} has no implementation`);
    const { call, input } = await this.admit(implementation.contract, ctx, args);
    const events = implementation.stream(input as never, call as never, signal, body);
    return this.refundingBeforeFirst(implementation.contract, call, events);
  }

  /** A stream's refusal comes before its first event; after one, the call was answered. */
  private async *refundingBeforeFirst(contract: OperationContract, call: OperationCall, events: AsyncIterable<unknown>) {
    let started = false;
    try {
      for await (const event of events) {
        started = true;
        yield event;
      }
    } catch (error) {
      if (!started) await this.refundRefusal(contract, call, error);
      throw error;
    }
  }

  /** An admitted call the service refused as invalid input (422) gives back what it counted. */
  private async refundRefusal(contract: OperationContract, call: OperationCall, error: unknown): Promise<void> {
    if (!(error instanceof DomainError) || error.status !== 422) return;
    const access = this.accessFor(contract, call.ctx);
    await this.guard(access.kind).refund?.(call.ctx, access, call.caller);
  }

  /**
   * Refuses input the REST edge found invalid, exactly as if the pipeline had found it;
   * `count` is how many problems there were when the edge sent only the first ones.
   */
  async refuse(contract: OperationContract, ctx: SubgraphContext, issues: readonly InputIssue[], count?: number): Promise<never> {
    const access = this.accessFor(contract, ctx);
    await this.guard(access.kind).refuse?.(ctx, access, contract);
    throw refusalOf(contract, issues, count);
  }

  /**
   * Authenticates the caller as the operation's access would, without counting or
   * running anything: an endpoint that serves many operations (MCP) answers 401 before
   * it reads its messages. Only guards that can authenticate alone (`refuse`) can.
   */
  async authenticate(contract: OperationContract, ctx: SubgraphContext): Promise<void> {
    const access = this.accessFor(contract, ctx);
    if (access.kind === 'public') return;
    const guard = this.guard(access.kind);
    if (!guard.refuse) throw new Error(`access ${access.kind} cannot authenticate without admitting (operation ${contract.name})`);
    await guard.refuse(ctx, access, contract);
  }

  /** Admits a call of a route the edge answers alone, as its access counts such calls; a refusal is thrown. */
  async admitEdge(contract: OperationContract, ctx: SubgraphContext): Promise<void> {
    if (contract.kind !== 'edge') throw new Error(`operation ${contract.name} is not answered by the edge`);
    const access = this.accessFor(contract, ctx);
    await this.guard(access.kind)?.admitEdge?.(ctx, access, contract);
  }

  private async admit(contract: OperationContract, ctx: SubgraphContext, args: Record<string, unknown>) {
    const validation = validateInput(contract, args);
    if (!validation.ok) return this.refuse(contract, ctx, validation.issues);
    if (contract.throttle.length > 0) await this.bindings.throttle!(contract, ctx, validation.value as Record<string, unknown>);
    const access = this.accessFor(contract, ctx);
    const caller = await this.guard(access.kind).admit(ctx, access, contract);
    return { input: validation.value, call: { ctx, caller } as OperationCall };
  }
}

/**
 * The kinds of the contract's access a call may use: those the edge named for this operation
 * (`<operation>=<kind>,<kind>`), else all. The header names the operation so that it limits
 * only the route's own operation, never another one the same request reaches.
 */
function routeKinds(contract: OperationContract, header: string | undefined): readonly Access[] {
  if (!header) return contract.access;
  const [operation, kinds = ''] = header.split('=', 2);
  if (operation?.trim() !== contract.name) return contract.access;
  const named = kinds.split(',').map((kind) => kind.trim());
  const taken = contract.access.filter((access) => named.includes(access.kind));
  if (taken.length === 0) throw new Error(`operation ${contract.name}: the route takes none of its access kinds (${kinds})`);
  return taken;
}

/** The name a contract's stream is served under: its REST stream's, or its own for a streaming operation. */
function streamName(contract: OperationContract): string {
  if (contract.kind === 'stream') return contract.name;
  return contract.rest.find((binding) => binding.stream)?.stream?.operation ?? contract.name;
}
