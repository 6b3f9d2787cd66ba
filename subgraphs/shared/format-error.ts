import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from '../../runtime/logger.js';
import { CommonErrorCode, DomainError, errorCode, GraphQLErrorCode, wireCode } from '../../contracts/errors.js';

/** Codes graphql-js and Apollo use for malformed operations (and bad arguments); they are the client's fault. */
const CLIENT_CODES: Readonly<Record<string, number>> = Object.fromEntries(
  [...Object.values(GraphQLErrorCode), CommonErrorCode.BAD_USER_INPUT].map((key) => [wireCode(key), errorCode(key).status]),
);

function findDomainError(error: unknown): DomainError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof DomainError) return current;
    current = (current as { originalError?: unknown; cause?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The subgraph boundary: domain errors become `extensions.code`,
 * `extensions.http.status`, `param`, `details` (+ their meta); GraphQL's own
 * validation errors keep their code with status 400; anything else is a 500
 * whose message is hidden and whose cause is logged.
 */
export function formatSubgraphError(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  const domain = findDomainError(error);
  if (domain) {
    return {
      ...formatted,
      message: domain.message,
      extensions: {
        ...domain.meta,
        code: domain.code,
        http: { status: domain.status },
        param: domain.param,
        details: domain.details,
      },
    };
  }
  const code = typeof formatted.extensions?.code === 'string' ? formatted.extensions.code : undefined;
  const graphQLError = error instanceof GraphQLError ? error : undefined;
  const isValidation = code !== undefined && code in CLIENT_CODES;
  const isArgumentCoercion = !code && graphQLError && !graphQLError.originalError;
  if (isValidation || isArgumentCoercion) {
    const clientCode = code ?? wireCode(CommonErrorCode.BAD_USER_INPUT);
    return { ...formatted, extensions: { code: clientCode, http: { status: CLIENT_CODES[clientCode] ?? 400 } } };
  }
  logger.error({ err: graphQLError?.originalError ?? error, path: formatted.path }, 'unexpected resolver error');
  return {
    message: 'Internal server error',
    path: formatted.path,
    locations: formatted.locations,
    extensions: { code: wireCode(CommonErrorCode.INTERNAL_SERVER_ERROR), http: { status: 500 } },
  };
}
