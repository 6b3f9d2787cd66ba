import type { z } from 'zod';
import { accessOfKind, describeAccess, requiredKeyScope, type Access } from '../../contracts/access.js';
import { errorCatalogue, errorCode, type ErrorNamespace } from '../../contracts/errors.js';
import { contractFamily, wireName } from '../../contracts/input.js';
import { LIBRARY_DESCRIPTION } from '../../contracts/library/about.js';
import { routeAccess, type InputLocation, type OperationContract, type RestBinding, type ServiceName } from '../../contracts/operation.js';
import { describeSchema, unwrap } from '../../contracts/schema-shape.js';
import { VERSION } from '../../contracts/version.js';
import { referenceFields } from '../../contracts/references.js';
import { MCP_SERVERS } from '../../contracts/registry.js';
import { errorBody } from './error-bodies.js';
import { mcpPath } from './mcp-paths.js';
import { SchemaCollector, type JsonSchema } from './json-schema.js';
import { RATE_LIMIT_HEADERS, rateLimitHeaderRefs, SECURITY_SCHEMES, withAccess } from './security.js';

/**
 * The OpenAPI 3.1 description of a service, derived from its contracts: every REST
 * binding with its parameters and body (wire names and bounds), its success body, the
 * statuses its access, input and published errors can answer with in the family's
 * error shape, and the error catalogue of the service.
 */

/** Every document carries the one version of the build (package.json), as do the health bodies and the GraphQL page. */
const SERVICES: Readonly<Record<ServiceName, { title: string; description: string; namespaces: ErrorNamespace[] }>> = {
  library: { title: 'Qantara library API', description: LIBRARY_DESCRIPTION, namespaces: ['library', 'common', 'edge'] },
  research: {
    title: 'Qantara research API',
    description: 'Startup-idea research: cases with an asynchronous assistant, paid research runs, prepaid credits and scoped API keys.',
    namespaces: ['research', 'common', 'edge'],
  },
  operations: {
    title: 'Qantara operations API',
    description:
      'Multi-tenant operations core for mining enterprises. Errors are `application/problem+json`; `instance` is the request path.',
    namespaces: ['operations', 'common', 'edge'],
  },
};

/** Statuses an access kind can answer with before the service runs. */
const ACCESS_STATUSES: Readonly<Record<Access['kind'], readonly number[]>> = {
  public: [],
  libraryKey: [401, 429, 502],
  libraryAccount: [401, 503],
  adminToken: [401],
  researchKey: [401, 403],
  researchUser: [401, 503],
  operations: [401, 403],
};

type Requirement = Record<string, string[]>;

const SECURITY: Readonly<Record<Access['kind'], (access: Access, contract: OperationContract) => Requirement[]>> = {
  public: () => [],
  libraryKey: () => [{ bearerKey: [] }],
  libraryAccount: () => [{ accountToken: [] }],
  adminToken: () => [{ adminToken: [] }],
  researchKey: (access) => [{ researchKey: access.kind === 'researchKey' ? [...access.scopes] : [] }],
  researchUser: () => [{ oauth: [] }],
  operations: (access, contract): Requirement[] =>
    access.kind === 'operations' && access.userOnly
      ? [{ bearerToken: [] }]
      : [{ bearerToken: [] }, { apiKey: [access.kind === 'operations' ? requiredKeyScope(access, contract) : 'read'] }],
};

/**
 * The security requirements of a list of access kinds: any one of them will do (OpenAPI
 * reads the list as alternatives), each kind's own in the declared order.
 */
function securityOf(accesses: readonly Access[], contract: OperationContract): Requirement[] {
  return accesses.flatMap((access) => SECURITY[access.kind](access, contract));
}

/** Whether a field is lenient: a value its schema refuses is caught into its default rather than answered with 422. */
const isLenient = (schema: z.ZodType) => (schema as unknown as { _zod: { def: { type: string } } })._zod.def.type === 'catch';

/** How a lenient parameter is documented beside its own description. */
const LENIENT =
  'Lenient: a value its type does not allow (e.g. `abc`, `NaN`, `1e309`) is not refused; the default applies, as if it were absent.';

/** Whether some input can be refused: a field whose problems are not all caught into a default. */
function refusable(contract: OperationContract): boolean {
  return Object.values(contract.wireArgs.shape as Record<string, z.ZodType>).some((schema) => !isLenient(schema));
}

/**
 * The error statuses an operation's description declares (its access, input, idempotency,
 * references and own errors): for one of its routes, that route's access kinds'.
 */
export function declaredStatuses(contract: OperationContract, binding?: RestBinding): number[] {
  const family = contractFamily(contract);
  const accesses = binding ? routeAccess(contract, binding) : contract.access;
  const statuses = new Set<number>(accesses.flatMap((access) => ACCESS_STATUSES[access.kind]));
  if (refusable(contract) || family === 'library-admin') statuses.add(422);
  if (contract.idempotency) [400, 409, 422].forEach((status) => statuses.add(status));
  for (const key of contract.errors) statuses.add(errorCode(key).status);
  // An id naming no record the caller may see is refused as not found (contracts/references.ts).
  if (referenceFields(contract).length > 0) statuses.add(404);
  return [...statuses].sort();
}

class OpenApiBuilder {
  readonly schemas = new SchemaCollector();

  parameters(contract: OperationContract, binding: RestBinding): unknown[] {
    const where: Record<InputLocation, string> = { path: 'path', query: 'query', headers: 'header', body: '' };
    const parameters: unknown[] = [];
    for (const location of ['path', 'query', 'headers'] as const) {
      for (const [field, schema] of Object.entries(contract.input[location] ?? {})) {
        const { optional } = unwrap(schema);
        const lenient = isLenient(schema);
        const description = [describeSchema(schema), lenient ? LENIENT : undefined].filter(Boolean).join(' ');
        parameters.push({
          name: wireName(contract, field, binding),
          in: where[location],
          required: location === 'path' || !optional,
          ...(description ? { description } : {}),
          schema: this.schemas.schema(schema, 'input'),
          ...(lenient ? { 'x-lenient': true } : {}),
        });
      }
    }
    if (contract.idempotency) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: contract.idempotency === 'required',
        description: 'A UUID v4; a repeat with the same key and body returns the stored response (24 hours).',
        schema: { type: 'string', format: 'uuid' },
      });
    }
    return parameters;
  }

  requestBody(contract: OperationContract, binding: RestBinding): unknown {
    if (binding.body === 'upload' && binding.request) {
      return { required: true, content: { 'application/json': { schema: this.schemas.schema(binding.request, 'input') } } };
    }
    if (binding.body === 'upload') {
      const file = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
      return { required: true, content: { 'text/markdown': file, 'application/x-ndjson': file } };
    }
    const fields = Object.entries(contract.input.body ?? {});
    if (fields.length === 0) return undefined;
    let schema: JsonSchema;
    if (binding.request) schema = this.schemas.schema(binding.request, 'input');
    else if (binding.bodyField) schema = this.schemas.schema(contract.input.body![binding.bodyField]!, 'input');
    else {
      const properties = Object.fromEntries(
        fields.map(([field, value]) => [wireName(contract, field, binding), this.schemas.schema(value, 'input')]),
      );
      const required = fields.filter(([, value]) => !unwrap(value).optional).map(([field]) => wireName(contract, field, binding));
      // Fields the contract does not declare are refused with 422 (rest-facade/decode.ts).
      schema = { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
    }
    return { required: true, content: { 'application/json': { schema } } };
  }

  success(contract: OperationContract, binding: RestBinding): Record<string, unknown> {
    const status = String(binding.status ?? 200);
    // A library key's windows, or on the library's open routes the client address's.
    const counted =
      accessOfKind(contract.access, 'libraryKey') !== undefined ||
      (contract.service === 'library' && accessOfKind(contract.access, 'public') !== undefined && contract.kind !== 'edge');
    const location = binding.location
      ? { Location: { description: binding.location, schema: { type: 'string', format: 'uri' } } }
      : ({} as Record<string, unknown>);
    const limits = counted ? rateLimitHeaderRefs() : {};
    const headers = Object.keys({ ...limits, ...location }).length ? { headers: { ...limits, ...location } } : {};
    if (binding.contentType && binding.contentType !== 'application/json') {
      return {
        [status]: {
          description: binding.summary ?? contract.summary,
          ...headers,
          content: { [binding.contentType]: { schema: { type: 'string' } } },
        },
      };
    }
    const body = binding.response ?? contract.output;
    let schema = this.schemas.schema(body, 'output');
    if (contract.nullable && !binding.response) schema = { anyOf: [schema, { type: 'null' }] };
    return { [status]: { description: binding.summary ?? contract.summary, ...headers, content: { 'application/json': { schema } } } };
  }

  errors(contract: OperationContract, binding: RestBinding): Record<string, unknown> {
    const family = contractFamily(contract);
    const codes = contract.errors.map(errorCode);
    return Object.fromEntries(
      declaredStatuses(contract, binding).map((status) => {
        const { schema, contentType } = errorBody(family, status);
        const named = codes.filter((code) => code.status === status).map((code) => `\`${code.code}\``);
        const description = named.length ? `Codes: ${named.join(', ')}.` : `HTTP ${status}.`;
        const headers = status === 429 ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } : {};
        return [String(status), { description, ...headers, content: { [contentType]: { schema: this.schemas.schema(schema, 'output') } } }];
      }),
    );
  }

  operation(contract: OperationContract, binding: RestBinding, index: number): Record<string, unknown> {
    const requestBody = this.requestBody(contract, binding);
    const accesses = routeAccess(contract, binding);
    return {
      operationId: binding.operationId ?? (index === 0 ? contract.name : `${contract.name}${index + 1}`),
      summary: binding.summary ?? contract.summary,
      description: withAccess(contract.description, accesses),
      tags: binding.tags ?? contract.tags,
      security: securityOf(accesses, contract),
      'x-access': describeAccess(accesses),
      ...(contract.throttle.length > 0 ? { 'x-attempt-limits': contract.throttle } : {}),
      parameters: this.parameters(contract, binding),
      ...(requestBody ? { requestBody } : {}),
      responses: { ...this.success(contract, binding), ...this.errors(contract, binding) },
    };
  }
}

/** The OpenAPI document of one service. */
export function serviceOpenApi(service: ServiceName, contracts: readonly OperationContract[]): Record<string, unknown> {
  const about = SERVICES[service];
  const builder = new OpenApiBuilder();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const contract of contracts) {
    contract.rest.forEach((binding, index) => {
      const path = binding.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      paths[path] = { ...paths[path], [binding.method.toLowerCase()]: builder.operation(contract, binding, index) };
    });
  }
  const servers = MCP_SERVERS.filter((server) => server.service === service);
  for (const server of servers) {
    paths[server.path] = mcpPath(server, contracts, securityOf(server.admission.access, server.admission), builder.schemas);
  }
  const routeTags = contracts.flatMap((contract) => [...contract.tags, ...contract.rest.flatMap((binding) => binding.tags ?? [])]);
  const tags = [...new Set([...routeTags, ...(servers.length > 0 ? ['mcp'] : [])])].map((name) => ({
    name,
  }));
  const codes = errorCatalogue(about.namespaces);
  // The catalogue is `x-error-codes` for programs and a table in the description for readers.
  const table = codes.map(
    ({ code, status, description }) => `| \`${code}\` | ${status} | ${description.replaceAll('|', '\\|').replace(/\s*\n\s*/g, ' ')} |`,
  );
  const description = `${about.description}\n\n### Error codes\n\n| code | status | meaning |\n| --- | --- | --- |\n${table.join('\n')}`;
  return {
    openapi: '3.1.0',
    info: { title: about.title, version: VERSION, description },
    tags,
    paths,
    components: { schemas: builder.schemas.components, headers: RATE_LIMIT_HEADERS, securitySchemes: SECURITY_SCHEMES[service] },
    // An operations Problem's `title` is its code's title.
    'x-error-codes': codes.map(({ code, status, title, description }) =>
      service === 'operations' ? { code, status, title, description } : { code, status, description },
    ),
  };
}
