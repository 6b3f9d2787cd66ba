import { z } from 'zod';
import { accessList, type Access, type AccessDeclaration, type AccessKind } from './access.js';
import type { DomainError, ErrorKey } from './errors.js';
import { familyOf, SNAKE_CASE_FAMILIES, type Family } from './families.js';

/**
 * One declaration per operation: its GraphQL field, REST binding, input with every
 * documented bound, output, access, idempotency, paging, published errors and MCP
 * tool. Data only — no Koa, no ORM — so the facade, the subgraphs, the OpenAPI
 * generator, the schema printer and the MCP servers all derive from the same object
 * (docs/adr/0007-operation-contracts.md).
 */

export type ServiceName = 'library' | 'research' | 'operations';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Fields of one input location, by their GraphQL (camelCase) name. */
export type Shape = Readonly<Record<string, z.ZodType>>;

/** Where each input field comes from on the REST wire; GraphQL and MCP see them as one flat argument list. */
export interface InputShapes {
  readonly path?: Shape;
  readonly query?: Shape;
  readonly body?: Shape;
  /** Request headers the operation reads as input (lower-case names), e.g. an upload's content type. */
  readonly headers?: Shape;
}

export type InputLocation = keyof InputShapes;
export const INPUT_LOCATIONS: readonly InputLocation[] = ['path', 'query', 'body', 'headers'];

type ShapeAt<I extends InputShapes, L extends InputLocation> = I[L] extends Shape ? I[L] : {}; // eslint-disable-line @typescript-eslint/no-empty-object-type
export type MergedShape<I extends InputShapes> = ShapeAt<I, 'path'> & ShapeAt<I, 'query'> & ShapeAt<I, 'body'> & ShapeAt<I, 'headers'>;
/** The validated input a service method receives: every location's fields, flat. */
export type InputOf<I extends InputShapes> = z.output<z.ZodObject<MergedShape<I>>>;

/** A problem found in an operation's input (input.ts validates), named by its wire name. */
export interface InputIssue {
  readonly location: InputLocation;
  /** The field's wire name, then nested keys and indexes; empty for the location as a whole. */
  readonly path: ReadonlyArray<string | number>;
  /** zod's issue code (`invalid_type`, `too_small`, …), or `invalid_characters` for text PostgreSQL cannot store. */
  readonly code: string;
  readonly message: string;
  /** The offending value; `undefined` when it is missing. */
  readonly input: unknown;
  /** What was expected (`invalid_type`), or the bound (`too_small`, `too_big`). */
  readonly expected?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly values?: readonly unknown[];
  /** Facts a custom check attached (zod `params`), e.g. how a family should word it. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** For a missing field: the object it was missing from (a body's fields only). */
  readonly parent?: unknown;
}

/** The family answering for a contract: its REST path's, else its service's. */
export function contractFamily(contract: Pick<OperationContract, 'rest' | 'service'>): Family {
  const path = contract.rest[0]?.path;
  if (path) return familyOf(path);
  return contract.service === 'library' ? 'library' : contract.service;
}

/** `maxChars` → `max_chars`. */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter, at: number) => `${at > 0 ? '_' : ''}${letter.toLowerCase()}`);

/** A field's name on the wire of a binding (its `names`, else the family's case). */
export function wireName(contract: Pick<OperationContract, 'rest' | 'service'>, field: string, binding?: RestBinding): string {
  const rest = binding ?? (contract.rest[0] as RestBinding | undefined);
  const renamed = rest?.names?.[field];
  if (renamed) return renamed;
  return SNAKE_CASE_FAMILIES.has(contractFamily(contract)) ? snakeCase(field) : field;
}

declare module 'zod' {
  interface GlobalMeta {
    /** An input field only the REST wire has (not a GraphQL argument), e.g. what `selection` includes. */
    restOnly?: boolean;
  }
}

/**
 * The research workspace API's protected resource, as the configuration names it
 * (`runtime/workspace-resource.ts`, the one place that decides it; docs/adr/0020).
 */
export interface WorkspaceResourceFacts {
  /** `{site_url}/api/chat`: the resource identifier and the audience of the access tokens it takes. */
  readonly resource: string;
  /** Its protected resource metadata (RFC 9728), the address its 401 challenge names. */
  readonly metadata: string;
  /** The issuers whose access tokens it takes (`authorization_servers`), the site's identity provider first. */
  readonly authorizationServers: readonly string[];
}

/** An identity provider the site mirrors in its discovery documents. */
export interface IdentityProviderFacts {
  /** Its issuer identifier, as its tokens' `iss` say. */
  readonly issuer: string;
  /** Its discovery document (`<issuer>/.well-known/openid-configuration`), as it serves it. */
  readonly metadata: () => Promise<Readonly<Record<string, unknown>>>;
}

/** What a REST responder sees of the request besides the data. */
export interface WireRequest<In = Record<string, unknown>> {
  /** Absolute base for links (`PUBLIC_BASE_URL`, else the request's origin). */
  readonly baseUrl: string;
  /** `{site_url}`: where the site's pages and discovery documents are (`SITE_BASE_URL`, else `baseUrl`). */
  readonly siteUrl: string;
  /** `{api_url}`: where the REST and MCP endpoints are (`API_BASE_URL`, else `baseUrl`). */
  readonly apiUrl: string;
  /** The site's identity provider: the console's (`CONSOLE_ISSUER`), else ours. */
  readonly identityProvider: IdentityProviderFacts;
  /** Ours, `<origin>/oidc` (ADR 0016). */
  readonly ownIdentityProvider: IdentityProviderFacts;
  readonly workspaceResource: WorkspaceResourceFacts;
  readonly input: In;
  /** The JSON body as sent. */
  readonly body: unknown;
  /** The OpenAPI description of the operation's service, as `/openapi.json` serves it. */
  readonly openapi: () => Record<string, unknown>;
  /** The process's metrics in the Prometheus text exposition format, and its content type. */
  readonly metrics: () => Promise<{ readonly type: string; readonly body: string }>;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

export interface WireResponse {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Content type when the body is not JSON. */
  readonly type?: string;
}

/** The streamed form of a REST binding (server-sent events), chosen per request. */
export interface RestStream<In> {
  /** Name of the streaming operation that answers (its implementation is bound like a handler). */
  readonly operation: string;
  /** Whether the request asks for the stream, read from its JSON body (e.g. `stream: true`). */
  readonly when: (body: unknown) => boolean;
  /** A fresh encoder per response: one event → the `data:` payloads to send (objects are sent as JSON). */
  readonly encoder: (request: WireRequest<In>) => (event: unknown) => readonly unknown[];
  /** Payload sent after the last event, e.g. `[DONE]`. */
  readonly done?: string;
}

export interface RestBinding<In = Record<string, unknown>, Out = unknown> {
  readonly method: HttpMethod;
  /** Koa-router style, e.g. `/api/v1/eam/assets/:id`; `:name` segments are the `path` fields. */
  readonly path: string;
  /** Status of success (default 200). */
  readonly status?: number;
  /** How the body is read: JSON (default for POST/PUT/PATCH), streamed unread to a `stream` operation, or none. */
  readonly body?: 'json' | 'upload' | 'none';
  /** Largest body accepted, in bytes (default 1 MiB). */
  readonly bodyLimit?: number;
  /** Wire names that differ from the GraphQL names (besides the family's case convention). */
  readonly names?: Readonly<Record<string, string>>;
  /** The whole JSON body is this one (object) argument, e.g. `request`. */
  readonly bodyField?: string;
  /**
   * Where the wire differs from the GraphQL input beyond names (aliases, a string for a
   * one-item list): the JSON body → the body in GraphQL names. Problems it finds are pushed.
   */
  readonly decode?: (body: unknown, problems: InputIssue[]) => unknown;
  /** The documented body when it differs from the GraphQL data (e.g. the library's snake_case). */
  readonly respond?: (data: Out, request: WireRequest<In>) => WireResponse | Promise<WireResponse>;
  /** Schema of the wire body when `respond` changes it (OpenAPI). */
  readonly response?: z.ZodType;
  /** Schema of the request body on the wire when `decode` changes it (OpenAPI). */
  readonly request?: z.ZodType;
  /** Content type of the success body when it is not JSON (OpenAPI). */
  readonly contentType?: string;
  /** What the `Location` of a 202 names, when `respond` sets it: documented as the 202's header (OpenAPI). */
  readonly location?: string;
  /** Headers every success carries (e.g. `Cache-Control: no-store` on a body with a secret). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly stream?: RestStream<In>;
  /**
   * The selection of the named GraphQL operation the route runs, when not every field
   * of the output: may use `@include(if: $field)` with a `restOnly` input field.
   */
  readonly selection?: string;
  /** The OpenAPI summary, when it should differ from the operation's. */
  readonly summary?: string;
  /** The OpenAPI operationId of a route after the first, when it keeps one it was released with. */
  readonly operationId?: string;
  /** The OpenAPI tags of the route, when they differ from the operation's. */
  readonly tags?: readonly string[];
  /**
   * The kinds of the operation's access this route takes, when not all of them (e.g. a
   * workspace route for signed-in users only): a caller of another kind is refused here as
   * the first of these kinds refuses a caller without credentials (docs/adr/0046).
   */
  readonly accepts?: readonly AccessKind[];
}

/** Page-size bounds; without `default` the caller must send `limit` (422 when absent). */
export interface PageLimit {
  readonly min: number;
  readonly max: number;
  readonly default?: number;
}

export interface CursorPaging {
  readonly kind: 'cursor';
  readonly limit: PageLimit;
  /** What the cursor is (OpenAPI), e.g. "the `id` of the last item" or "a date-time". */
  readonly cursor?: string;
}

export interface OffsetPaging {
  readonly kind: 'offset';
  readonly limit: PageLimit;
}

export type Paging = CursorPaging | OffsetPaging;

/**
 * How the operation is served: a GraphQL `query` or `mutation` (REST runs it through
 * the gateway), a `stream` beside GraphQL (docs/adr/0006), or `edge`: answered by the
 * facade alone from static facts (documentation pages, liveness).
 */
export type OperationKind = 'query' | 'mutation' | 'stream' | 'edge';

/**
 * A limit on attempts, counted whatever their outcome: at most `limit` calls per
 * `windowSeconds` for one subject — the client address, or an input field (e.g. the
 * e-mail address). Over it: 429 with `Retry-After`.
 */
export interface Throttle {
  readonly by: 'ip' | { readonly field: string };
  readonly limit: number;
  readonly windowSeconds: number;
}

/** The operation is an MCP tool of its service's MCP endpoint: its input schema is the contract's arguments. */
export interface McpTool {
  readonly tool: string;
  readonly description?: string;
}

/**
 * The operation is an MCP resource of its service's MCP endpoint, read with its REST
 * binding's body: `uri` is a path under the API base URL, a template (RFC 6570 level 1)
 * when it names path fields, e.g. `/chat/threads/{threadId}`.
 */
export interface McpResource {
  readonly resource: string;
  readonly uri: string;
  readonly description?: string;
  /** Arguments every read passes besides those of the URI (e.g. a page size). */
  readonly args?: Readonly<Record<string, unknown>>;
}

export type McpBinding = McpTool | McpResource;

/** The paging fields a list adds to its input. */
export type PagingInput<P> = P extends CursorPaging
  ? { cursor?: string; limit: number }
  : P extends OffsetPaging
    ? { limit: number; offset: number }
    : Record<never, never>;

/** The result of a contract: a page of items for cursor lists, nullable when declared so. */
export type ResultOf<O extends z.ZodType, P, N> =
  (P extends CursorPaging ? { items: Array<z.output<O>>; nextCursor: string | null } : z.output<O>) | (N extends true ? null : never);

export interface ContractDeclaration<
  I extends InputShapes,
  O extends z.ZodType,
  P extends Paging | undefined,
  N extends boolean,
  A extends Access,
> {
  readonly service: ServiceName;
  /** GraphQL field name (camelCase, unique across services); also the OpenAPI operationId. */
  readonly name: string;
  readonly kind: OperationKind;
  readonly summary: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  /**
   * Who may call: one kind, or several (a key or a signed-in user); the caller's credential
   * picks the kind — the first listed whose credential the request carries, else the first
   * (docs/adr/0046).
   */
  readonly access: AccessDeclaration<A>;
  readonly input?: I;
  /** GraphQL (and default wire) shape of the result. Named types carry `.meta({ id })`. */
  readonly output: O;
  /** Whether the result may be null (e.g. a lookup that found nothing). */
  readonly nullable?: N;
  readonly rest?: RestBinding<InputOf<I>, ResultOf<O, P, N>> | ReadonlyArray<RestBinding<InputOf<I>, ResultOf<O, P, N>>>;
  /** `required`: an `Idempotency-Key` header (UUID v4) must come with the call; `optional`: honoured when sent. */
  readonly idempotency?: 'required' | 'optional';
  /** List paging; adds `cursor`/`offset` and `limit` to the query and wraps the output as a page. */
  readonly paging?: P;
  /** Codes the operation may answer with besides those of its access and validation. */
  readonly errors?: readonly ErrorKey[];
  /** The error for invalid input when it is not the family's usual one. */
  readonly refusal?: (issues: readonly InputIssue[]) => DomainError;
  readonly throttle?: readonly Throttle[];
  readonly mcp?: McpBinding;
}

/** A contract after `defineOperation`: paging applied, input merged, REST bindings a list. */
// Defaults erase both parameters so any contract fits a list of contracts (`respond` takes the result).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface OperationContract<I extends InputShapes = any, R = any, A extends Access = Access, X = Record<never, never>> {
  readonly service: ServiceName;
  readonly name: string;
  readonly kind: OperationKind;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** Every kind of caller it takes, in the declared order (one kind is a list of one). */
  readonly access: readonly A[];
  readonly input: InputShapes;
  /** Every input field, flat: what GraphQL arguments and service methods see. */
  readonly args: z.ZodObject<MergedShape<I>>;
  /** `args` plus the fields only the named operation has (`.meta({ restOnly: true })`, e.g. a selection switch): REST and MCP input. */
  readonly wireArgs: z.ZodObject;
  /** Which location each field comes from on the REST wire. */
  readonly locations: Readonly<Record<string, InputLocation>>;
  readonly output: z.ZodType;
  readonly nullable: boolean;
  readonly rest: ReadonlyArray<RestBinding<InputOf<I>, R>>;
  readonly idempotency?: 'required' | 'optional';
  readonly paging?: Paging;
  readonly errors: readonly ErrorKey[];
  readonly refusal?: (issues: readonly InputIssue[]) => DomainError;
  readonly throttle: readonly Throttle[];
  readonly mcp?: McpBinding;
  /** Type-level only: the validated input and the result. */
  readonly _types?: { readonly input: InputOf<I> & X; readonly output: R };
}

const NAME = /^[a-z][A-Za-z0-9]*$/;

/** Adds the paging fields to the query and wraps the item schema as the documented page. */
function withPaging(input: InputShapes, output: z.ZodType, paging: Paging | undefined, name: string) {
  if (!paging) return { input, output };
  const { min, max, default: fallback } = paging.limit;
  const bounded = z.int().min(min).max(max);
  const limit =
    fallback === undefined
      ? bounded.describe(`Page size, ${min} to ${max} (required).`)
      : bounded.default(fallback).describe(`Page size, ${min} to ${max} (default ${fallback}).`);
  if (paging.kind === 'offset') {
    const query = { ...input.query, limit, offset: z.int().min(0).default(0).describe('Items to skip.') };
    return { input: { ...input, query }, output };
  }
  const cursor = z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(paging.cursor ?? 'The `nextCursor` of the previous page.');
  const page = z
    .object({ items: z.array(output), nextCursor: z.string().nullable().describe('Cursor of the next page; null on the last.') })
    .meta({ id: `${pageTypeName(output, name)}Page` });
  return { input: { ...input, query: { ...input.query, cursor, limit } }, output: page };
}

function pageTypeName(item: z.ZodType, operation: string): string {
  const id = z.globalRegistry.get(item)?.id;
  return id ?? `${operation[0]!.toUpperCase()}${operation.slice(1)}Item`;
}

/** Declares one operation; a malformed declaration fails at start-up, never at request time. */
export function defineOperation<
  const I extends InputShapes = {}, // eslint-disable-line @typescript-eslint/no-empty-object-type
  O extends z.ZodType = z.ZodType,
  P extends Paging | undefined = undefined,
  N extends boolean = false,
  A extends Access = Access,
>(declaration: ContractDeclaration<I, O, P, N, A>): OperationContract<I, ResultOf<O, P, N>, A, PagingInput<P>> {
  const where = `operation ${declaration.name}`;
  if (!NAME.test(declaration.name)) throw new Error(`${where}: the name must be camelCase`);
  if (!declaration.access) throw new Error(`${where}: declares no access`);
  const access = accessList(declaration.access);
  if (access.length === 0) throw new Error(`${where}: declares no access`);
  const { input, output } = withPaging(declaration.input ?? {}, declaration.output, declaration.paging, declaration.name);
  const locations: Record<string, InputLocation> = {};
  const shape: Record<string, z.ZodType> = {};
  const wireShape: Record<string, z.ZodType> = {};
  for (const location of INPUT_LOCATIONS) {
    for (const [field, schema] of Object.entries(input[location] ?? {})) {
      if (locations[field]) throw new Error(`${where}: field ${field} is declared in ${locations[field]} and ${location}`);
      locations[field] = location;
      wireShape[field] = schema;
      if (!z.globalRegistry.get(schema)?.restOnly) shape[field] = schema;
    }
  }
  const rest = (
    declaration.rest === undefined ? [] : Array.isArray(declaration.rest) ? declaration.rest : [declaration.rest]
  ) as RestBinding[];
  for (const binding of rest) {
    const params = [...binding.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);
    const declared = Object.keys(input.path ?? {}).map((field) => wireName({ rest, service: declaration.service }, field, binding));
    if (params.sort().join() !== declared.sort().join()) {
      throw new Error(`${where}: ${binding.path} has path parameters [${params}] but declares [${declared}]`);
    }
    if (binding.accepts?.length === 0) throw new Error(`${where}: ${binding.path} accepts no access kind`);
    for (const kind of binding.accepts ?? []) {
      if (!access.some((declared) => declared.kind === kind)) throw new Error(`${where}: ${binding.path} accepts ${kind}, not its access`);
    }
  }
  return {
    service: declaration.service,
    name: declaration.name,
    kind: declaration.kind,
    summary: declaration.summary,
    description: declaration.description,
    tags: declaration.tags ?? [],
    access,
    input,
    args: z.object(shape) as unknown as z.ZodObject<MergedShape<I>>,
    wireArgs: z.object(wireShape),
    locations,
    output,
    nullable: declaration.nullable ?? false,
    rest: rest as OperationContract<I, ResultOf<O, P, N>, A, PagingInput<P>>['rest'],
    idempotency: declaration.idempotency,
    paging: declaration.paging,
    errors: declaration.errors ?? [],
    refusal: declaration.refusal,
    throttle: declaration.throttle ?? [],
    mcp: declaration.mcp,
  };
}

/** The validated input type of a contract. */
export type ContractInput<C> = C extends { readonly _types?: { readonly input: infer In } } ? In : never;
/** The input shapes a contract was declared with. */
type ShapesOf<C> = C extends OperationContract<infer I, any, any, any> ? I : never; // eslint-disable-line @typescript-eslint/no-explicit-any
/** The validated fields of one input location of a contract, e.g. the body a patch method takes beside the path `id`. */
export type LocationInput<C, L extends InputLocation> = z.output<z.ZodObject<ShapeAt<ShapesOf<C>, L>>>;
/** The validated body of a contract. */
export type BodyOf<C> = LocationInput<C, 'body'>;
/** The validated query of a contract, without the paging fields. */
export type QueryOf<C> = LocationInput<C, 'query'>;
/** The result type of a contract (a page for cursor lists). */
export type ContractOutput<C> = C extends { readonly _types?: { readonly output: infer Out } } ? Out : never;

/** The kinds of caller a REST route of a contract takes: its `accepts`, else every kind of the contract's access. */
export function routeAccess(contract: Pick<OperationContract, 'access'>, binding: Pick<RestBinding, 'accepts'>): readonly Access[] {
  const accepts = binding.accepts;
  return accepts ? contract.access.filter((access) => accepts.includes(access.kind)) : contract.access;
}

/** The named GraphQL operation a contract's REST routes run: its name in PascalCase. */
export const operationNameOf = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;

/** The field through which a service refuses input the REST edge found invalid, and its named operation. */
export const refusalFieldOf = (service: ServiceName) => `${service}InputRefusal`;
export const refusalOperationOf = (service: ServiceName) => operationNameOf(refusalFieldOf(service));

/** The field through which an endpoint serving many operations (MCP) authenticates a caller first, and its named operation. */
export const callerCheckFieldOf = (service: ServiceName) => `${service}CallerCheck`;
export const callerCheckOperationOf = (service: ServiceName) => operationNameOf(callerCheckFieldOf(service));
