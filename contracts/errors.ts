/**
 * The error-code registry and the transport-free domain error. Codes are registered
 * once per service namespace (`library`, `research`, `operations`, plus `common` and
 * `edge`), so two services can never claim the same code; each code carries its HTTP
 * status and one sentence for the generated catalogue. Services throw `DomainError`s
 * through static factories; the subgraph boundary and each REST family map them once.
 */

export type ErrorNamespace = 'common' | 'edge' | 'graphql' | 'library' | 'research' | 'operations';

/** A registered code: `<namespace>.<code>`, e.g. `operations.ASSET_ALREADY_DECOMMISSIONED`. */
export type ErrorKey = string & { readonly __errorKey: true };

export interface ErrorCodeDefinition {
  /** HTTP status the code stands for. */
  readonly status: number;
  /** One sentence for the error catalogue. */
  readonly description: string;
  /**
   * A short summary of the problem type, the same for every occurrence (RFC 9457 `title`);
   * by default the code in words (`ASSET_ALREADY_DECOMMISSIONED` → "Asset already decommissioned").
   */
  readonly title?: string;
}

export interface RegisteredErrorCode extends ErrorCodeDefinition {
  readonly key: ErrorKey;
  readonly namespace: ErrorNamespace;
  /** The code as it appears on the wire. */
  readonly code: string;
  readonly title: string;
}

/** A code in words: `ASSET_ALREADY_DECOMMISSIONED` → "Asset already decommissioned". */
export function titleOfCode(code: string): string {
  const words = code.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface ErrorDetail {
  readonly field: string;
  readonly message: string;
}

export interface DomainErrorOptions {
  readonly param?: string | null;
  readonly details?: readonly ErrorDetail[] | null;
  /** Extra machine-readable facts for the wire (e.g. `retryAfter`, `creditBalance`). */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

const registry = new Map<ErrorKey, RegisteredErrorCode>();

/** Registers a namespace's codes once, at module load; a code registered twice is a programming error. */
export function defineErrorCodes<const T extends Record<string, ErrorCodeDefinition>>(
  namespace: ErrorNamespace,
  codes: T,
): { readonly [K in keyof T]: ErrorKey } {
  const keys = {} as Record<string, ErrorKey>;
  for (const [code, definition] of Object.entries(codes)) {
    const key = `${namespace}.${code}` as ErrorKey;
    if (registry.has(key)) throw new Error(`error code ${key} is registered twice`);
    registry.set(key, { key, namespace, code, ...definition, title: definition.title ?? titleOfCode(code) });
    keys[code] = key;
  }
  return keys as { readonly [K in keyof T]: ErrorKey };
}

export function errorCode(key: ErrorKey): RegisteredErrorCode {
  const found = registry.get(key);
  if (!found) throw new Error(`error code ${key} is not registered`);
  return found;
}

/** Every registered code of the given namespaces, for the generated error catalogues. */
export function errorCatalogue(namespaces: readonly ErrorNamespace[]): RegisteredErrorCode[] {
  return [...registry.values()]
    .filter((entry) => namespaces.includes(entry.namespace))
    .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/** The code registered under `code` (its wire spelling) in the first of the namespaces that has it. */
export function registeredCode(code: string, namespaces: readonly ErrorNamespace[]): RegisteredErrorCode | undefined {
  for (const namespace of namespaces) {
    const found = registry.get(`${namespace}.${code}` as ErrorKey);
    if (found) return found;
  }
  return undefined;
}

export class DomainError extends Error {
  readonly key: ErrorKey;
  /** The wire code. */
  readonly code: string;
  readonly status: number;
  readonly param: string | null;
  readonly details: readonly ErrorDetail[] | null;
  readonly meta: Readonly<Record<string, unknown>>;

  constructor(key: ErrorKey, message: string, options: DomainErrorOptions = {}) {
    super(message, { cause: options.cause });
    const definition = errorCode(key);
    this.name = 'DomainError';
    this.key = key;
    this.code = definition.code;
    this.status = definition.status;
    this.param = options.param ?? null;
    this.details = options.details ?? null;
    this.meta = options.meta ?? {};
  }
}

/** Codes every service may raise; their wire spelling follows the family (the library lower-cases them). */
export const CommonErrorCode = defineErrorCodes('common', {
  BAD_USER_INPUT: { status: 400, description: 'The request is malformed or an argument is invalid.' },
  VALIDATION_FAILED: { status: 422, description: 'One or more fields failed validation; `errors` lists each.' },
  UNAUTHENTICATED: { status: 401, description: 'Credentials are missing or invalid.' },
  FORBIDDEN: { status: 403, description: 'The caller may not perform this operation.' },
  NOT_FOUND: { status: 404, description: 'The resource does not exist or is not visible to the caller.' },
  CONFLICT: { status: 409, description: 'The request conflicts with the current state.' },
  RATE_LIMITED: { status: 429, description: 'Too many requests; retry after the given delay.' },
  UPSTREAM_FAILED: { status: 502, description: 'A dependency answered with an error or not at all.' },
  UNAVAILABLE: { status: 503, description: 'The service or one of its dependencies is down.' },
  INTERNAL_SERVER_ERROR: { status: 500, description: 'An unexpected failure; the message is hidden.' },
});

/** Codes the HTTP edge answers with before any service runs. */
export const EdgeErrorCode = defineErrorCodes('edge', {
  BAD_REQUEST: { status: 400, description: 'The request could not be read: malformed JSON, bad bytes, too deep.' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path exists for other methods (see `Allow`).' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body is larger than the route accepts.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The request body has a content type the route does not accept.' },
  HEADERS_TOO_LARGE: { status: 431, description: 'The request headers are larger than the server accepts.' },
  CLIENT_CLOSED: { status: 499, description: 'The client went away before the answer began; nobody reads this code.' },
});

/** Codes graphql-js and Apollo Server give malformed operations; all the client's fault. */
export const GraphQLErrorCode = defineErrorCodes('graphql', {
  GRAPHQL_PARSE_FAILED: { status: 400, description: 'The GraphQL document does not parse (or exceeds the token limit).' },
  GRAPHQL_VALIDATION_FAILED: { status: 400, description: 'The GraphQL document is not valid against the schema.' },
  PERSISTED_QUERY_NOT_FOUND: { status: 400, description: 'A persisted query was referenced that the server does not know.' },
  OPERATION_RESOLUTION_FAILURE: {
    status: 400,
    description: 'The operation to run could not be determined (e.g. two anonymous operations).',
  },
});

/** A refusal lists at most this many problems; when there were more it says how many. */
export const MAX_LISTED_PROBLEMS = 100;

/** The facts of a list of `count` problems cut to `MAX_LISTED_PROBLEMS`: `errorCount` and `truncated`, or none. */
export const truncationOf = (count: number): Readonly<Record<string, unknown>> =>
  count > MAX_LISTED_PROBLEMS ? { errorCount: count, truncated: true } : {};

/** The wire code of a registered key. */
export const wireCode = (key: ErrorKey): string => errorCode(key).code;
