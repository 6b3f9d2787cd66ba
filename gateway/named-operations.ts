import { createHash } from 'node:crypto';
import type { GatewayExecutionResult, GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import {
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ParseOptions,
  type ValidationRule,
} from 'graphql';
import { CommonErrorCode, wireCode } from '../contracts/errors.js';
import type { Metrics } from '../runtime/metrics.js';
import type { GatewayContext } from './context.js';

/** A named operation's answer as the edge reads it: the data, and the errors as a client of `/graphql` would see them. */
export interface NamedOperationResult {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: readonly GraphQLFormattedError[];
}

/** Runs one of the committed named operations (prepared at start-up) through the gateway's query plan. */
export type NamedOperationExecutor = (
  name: string,
  variables: Record<string, unknown>,
  context: GatewayContext,
) => Promise<NamedOperationResult>;

/** What `/graphql` learns of a document once and every request of it reuses: parsed, validated, resolved, hashed. */
interface PreparedOperation {
  readonly source: string;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  /** Apollo Server's key of the document (SHA-256 of its text); the gateway keys its query plans by it and the name. */
  readonly queryHash: string;
  /** `qantara_graphql_operations_total` of this operation, per outcome, looked up once. */
  readonly counted: Readonly<Record<'success' | 'error', { inc(): void }>>;
}

export interface NamedOperationsOptions {
  /** The committed named operations, by name (schema/operations). */
  readonly operations: ReadonlyMap<string, string>;
  /** The public graph's schema, as `/graphql` validates against it. */
  readonly schema: GraphQLSchema;
  /** The rules `/graphql` adds to graphql-js's own (armor's limits, the root-operation rule). */
  readonly validationRules: readonly ValidationRule[];
  readonly parseOptions: ParseOptions;
  /** The gateway's executor: it resolves (and caches) the query plan and runs it on the subgraphs. */
  readonly executor: (requestContext: GatewayGraphQLRequestContext) => Promise<GatewayExecutionResult>;
  /** `/graphql`'s error formatting, applied after Apollo Server's normalisation as on `/graphql`. */
  readonly formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  /** What graphql-armor writes instead of a field suggestion (`Did you mean "…"`). */
  readonly suggestionMask: string;
  /** Apollo Server's logger, which the gateway's executor logs to. */
  readonly logger: GatewayGraphQLRequestContext['logger'];
  readonly metrics: Pick<Metrics, 'graphqlOperations'>;
}

/** Apollo Server's code for an error that carries none, and for variables that do not coerce. */
const INTERNAL_SERVER_ERROR = wireCode(CommonErrorCode.INTERNAL_SERVER_ERROR);
const BAD_USER_INPUT = wireCode(CommonErrorCode.BAD_USER_INPUT);

/** Apollo Server's test for a variable coercion failure, which it answers as `BAD_USER_INPUT`. */
function isBadUserInput(error: GraphQLError): boolean {
  const node = error.nodes?.length === 1 ? error.nodes[0] : undefined;
  if (node?.kind !== 'VariableDefinition') return false;
  const variable = `Variable "$${node.variable.name.value}"`;
  return ['has invalid value', 'got invalid value ', 'of required type ', 'of non-null type '].some((words) =>
    error.message.startsWith(`${variable} ${words}`),
  );
}

const ensureGraphQLError = (error: unknown): GraphQLError =>
  error instanceof GraphQLError
    ? error
    : error instanceof Error
      ? new GraphQLError(error.message, { originalError: error })
      : new GraphQLError(`Unexpected error value: ${String(error)}`);

/**
 * Parses and validates every named operation once, as `/graphql` would on its first request
 * of it (a committed operation that does not validate stops the start), and returns how the
 * edge runs them: straight into the gateway's executor with the prepared document, past
 * Apollo Server's per-request work a fixed document does not need — hashing and looking up
 * its text, resolving the operation, content negotiation, plugin hooks, HTTP heads. What a
 * caller sees stays as on `/graphql`: variables are still coerced (by the gateway), errors
 * get Apollo Server's normalisation, armor's suggestion mask and `/graphql`'s formatting, and
 * every operation is counted in `qantara_graphql_operations_total`.
 */
export function prepareNamedOperations(options: NamedOperationsOptions): NamedOperationExecutor {
  const prepared = new Map<string, PreparedOperation>();
  const rules = [...specifiedRules, ...options.validationRules];
  for (const [name, source] of options.operations) {
    const document = parse(source, options.parseOptions);
    const problems = validate(options.schema, document, rules);
    if (problems.length > 0) throw new Error(`named operation ${name} does not validate: ${problems.map((p) => p.message).join('; ')}`);
    const operation = getOperationAST(document, name);
    if (!operation) throw new Error(`named operation ${name} is not in its document`);
    const counted = (outcome: 'success' | 'error') =>
      options.metrics.graphqlOperations.labels({ operation: name, type: operation.operation, outcome });
    prepared.set(name, {
      source,
      document,
      operation,
      queryHash: createHash('sha256').update(source).digest('hex'),
      counted: { success: counted('success'), error: counted('error') },
    });
  }

  const formatErrors = (errors: readonly unknown[]): GraphQLFormattedError[] =>
    errors.map((raw) => {
      const error = ensureGraphQLError(raw);
      // graphql-armor's `blockFieldSuggestion` rewrites the messages of the errors a request met.
      error.message = error.message.replace(/Did you mean ".+"/g, options.suggestionMask);
      try {
        const { http, ...extensions }: Record<string, unknown> = {
          ...error.extensions,
          code: error.extensions.code ?? INTERNAL_SERVER_ERROR,
        };
        // Apollo Server moves an `http` head out of the extensions into the response; `formatError` reads it from the error.
        const head = http === undefined || isHttpHead(http) ? {} : { http };
        return options.formatError({ ...error.toJSON(), extensions: { ...extensions, ...head } }, error);
      } catch {
        return { message: 'Internal server error', extensions: { code: INTERNAL_SERVER_ERROR } };
      }
    });

  return async (name, variables, context) => {
    const operation = prepared.get(name);
    if (!operation) throw new Error(`no named operation ${name}`);
    let result: NamedOperationResult;
    try {
      const executed = await options.executor(requestContextOf(operation, name, variables, context, options.schema, options.logger));
      const errors = executed.errors?.map((error) =>
        isBadUserInput(error) && error.extensions?.code == null
          ? new GraphQLError(error.message, {
              nodes: error.nodes,
              originalError: error.originalError ?? error,
              extensions: { ...error.extensions, code: BAD_USER_INPUT },
            })
          : error,
      );
      result = { data: executed.data, ...(errors ? { errors: formatErrors(errors) } : {}) };
    } catch (error) {
      result = { errors: formatErrors([error]) };
    }
    operation.counted[result.errors?.length ? 'error' : 'success'].inc();
    return result;
  };
}

/** Apollo Server's test for an `http` extension it takes over as the response's status and headers. */
function isHttpHead(value: unknown): boolean {
  return (
    !!value &&
    typeof value === 'object' &&
    (!('status' in value) || typeof value.status === 'number') &&
    (!('headers' in value) || value.headers instanceof Map)
  );
}

/** The request context Apollo Server hands the gateway's executor, for a prepared document. */
function requestContextOf(
  prepared: PreparedOperation,
  name: string,
  variables: Record<string, unknown>,
  context: GatewayContext,
  schema: GraphQLSchema,
  logger: GatewayGraphQLRequestContext['logger'],
): GatewayGraphQLRequestContext<GatewayContext> {
  return {
    request: { query: prepared.source, operationName: name, variables },
    // No HTTP here: what a subgraph asks of the response's head is read from the context (edge headers).
    response: { http: { headers: new Headers(), status: undefined } },
    logger,
    schema,
    schemaHash: 'schemaHash no longer exists since Apollo Server 4' as never,
    context,
    cache: undefined as never,
    queryHash: prepared.queryHash,
    document: prepared.document,
    source: prepared.source,
    operationName: name,
    operation: prepared.operation,
    metrics: {},
    debug: false,
    overallCachePolicy: undefined as never,
    requestIsBatched: false,
  };
}
