import type { Context, Middleware } from 'koa';
import { EdgeErrorCode, type ErrorKey } from '../contracts/errors.js';
import { validateInput } from '../contracts/input.js';
import type { WireResponse } from '../contracts/operation.js';
import type { GatewayContext } from '../gateway/context.js';
import { edgeHeaders } from '../gateway/edge-headers.js';
import type { StreamSources } from '../gateway/stream-sources.js';
import { BodyError, readJsonBody } from '../runtime/http/body.js';
import { recordIfUndeclared } from './declared-errors.js';
import { decodeRequest } from './decode.js';
import { serveEventStream } from './event-stream.js';
import { variablesOf, type OperationRunner } from '../edge/execute.js';
import { FacadeError } from '../edge/facade-error.js';
import { ERROR_MAPPERS } from './families.js';
import type { Route } from './route.js';

export interface HandlerDeps {
  readonly runner: OperationRunner;
  readonly contextFor: (ctx: Context) => GatewayContext;
  readonly streams?: StreamSources;
  /** A file to append every error answer the route's contract does not declare to (rest-facade/declared-errors.ts). */
  readonly declaredErrorsLog?: string;
}

/** Writes a wire response to Koa. */
export function send(ctx: Context, result: WireResponse): void {
  ctx.status = result.status ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
  if (result.type) ctx.type = result.type;
  ctx.body =
    result.type && typeof result.body === 'object' && result.body !== null && !Buffer.isBuffer(result.body)
      ? JSON.stringify(result.body)
      : (result.body as never);
}

/** Maps any failure into the family's documented error shape. */
export function sendError(ctx: Context, family: Route['family'], error: unknown): void {
  send(ctx, ERROR_MAPPERS[family](FacadeError.from(error), ctx));
}

const BODY_ERRORS: Readonly<Record<BodyError['status'], ErrorKey>> = {
  400: EdgeErrorCode.BAD_REQUEST,
  413: EdgeErrorCode.PAYLOAD_TOO_LARGE,
  415: EdgeErrorCode.UNSUPPORTED_MEDIA_TYPE,
};

async function readBody(ctx: Context, route: Route): Promise<unknown> {
  const reads = route.binding.body ? route.binding.body === 'json' : ['POST', 'PUT', 'PATCH'].includes(route.binding.method);
  if (!reads) return undefined;
  try {
    return await readJsonBody(ctx, route.binding.bodyLimit);
  } catch (error) {
    if (error instanceof BodyError) throw FacadeError.of(BODY_ERRORS[error.status], error.message);
    throw error;
  }
}

/**
 * The one REST handler, for every route of every contract: reads and decodes the
 * request, validates it with the contract (refusing through the service when it is
 * invalid), runs the contract's named operation — or its stream, or its upload — and
 * answers with the documented body or the family's error shape.
 */
export function routeHandler(route: Route, deps: HandlerDeps): Middleware {
  const { contract, binding } = route;
  if (binding.stream && !deps.streams?.has(binding.stream.operation)) {
    throw new Error(`${binding.method} ${binding.path}: no stream ${binding.stream.operation}`);
  }
  if (contract.kind === 'stream' && !deps.streams?.has(contract.name))
    throw new Error(`${binding.method} ${binding.path}: no stream ${contract.name}`);
  // A route taking only some of the operation's access kinds names them to its service (gateway/context.ts).
  const routeAccess = binding.accepts ? { operation: contract.name, kinds: binding.accepts } : undefined;
  return async (ctx) => {
    if (routeAccess) ctx.state.routeAccess = routeAccess;
    try {
      const body = await readBody(ctx, route);
      const decoded = decodeRequest(route, ctx, body);
      const validation = validateInput<Record<string, unknown>>(contract, decoded.args, { binding, wire: true });
      // A body that is missing or not an object is one problem, not one per field.
      const unreadable = decoded.issues.some((issue) => issue.location === 'body' && issue.path.length === 0);
      const fieldIssues = validation.ok ? [] : validation.issues.filter((issue) => !(unreadable && issue.location === 'body'));
      const issues = [...decoded.issues, ...fieldIssues];
      if (issues.length > 0 || !validation.ok) return await deps.runner.refuse(ctx, contract, issues);
      const request = deps.runner.wireRequest(ctx, contract.service, validation.value, body);
      const variables = variablesOf(validation.value);
      if (binding.stream?.when(body)) {
        await serveEventStream(ctx, { route, request, variables }, { streams: deps.streams!, contextFor: deps.contextFor });
        return;
      }
      const data = await dataOf(ctx, route, deps, variables);
      const outcome = binding.respond ? await binding.respond(data as never, request) : { body: data };
      send(ctx, { ...outcome, status: outcome.status ?? binding.status ?? 200, headers: { ...binding.headers, ...outcome.headers } });
    } catch (error) {
      if (!FacadeError.isExpected(error)) ctx.state.logger?.error({ err: error }, 'unexpected facade error');
      sendError(ctx, route.family, error);
    }
    if (deps.declaredErrorsLog) recordIfUndeclared(deps.declaredErrorsLog, contract, binding.method, binding.path, ctx.status, ctx.body);
  };
}

/** The operation's result: from GraphQL, from its upload stream's one event, or nothing for an edge operation. */
async function dataOf(ctx: Context, route: Route, deps: HandlerDeps, variables: Record<string, unknown>): Promise<unknown> {
  const { contract } = route;
  if (contract.kind === 'edge') {
    await deps.runner.admitEdge(ctx, contract);
    return undefined;
  }
  if (contract.kind === 'stream') return upload(ctx, deps, contract.name, variables);
  return deps.runner.result(ctx, contract, variables);
}

/** An upload: the request body goes unread to the streaming operation (here or over HTTP); its one event is the result. */
async function upload(ctx: Context, deps: HandlerDeps, name: string, variables: Record<string, unknown>): Promise<unknown> {
  const contextValue = deps.contextFor(ctx);
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  const opening = await deps.streams!.open(name, variables, contextValue, controller.signal, ctx.req);
  for (const [header, value] of Object.entries(edgeHeaders(contextValue.subgraphExtensions))) ctx.set(header, value);
  if (!opening.ok) throw FacadeError.fromGraphQL(opening.error);
  for await (const event of opening.events) return event;
  throw FacadeError.internal();
}
