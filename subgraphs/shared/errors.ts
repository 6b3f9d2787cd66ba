/**
 * Transport-free domain errors. Services throw them through static factories; the
 * subgraph boundary turns them into GraphQL errors with `extensions.code`,
 * `extensions.http.status`, `param` and `details`, and each REST family maps
 * those once more into its wire shape.
 */

export interface ErrorCodeDefinition {
  /** HTTP status the code stands for. */
  readonly status: number;
  /** One sentence for the error catalogue. */
  readonly description: string;
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

const registry = new Map<string, ErrorCodeDefinition & { readonly code: string }>();

/** Registers codes once, at module load; a code registered twice is a programming error. */
export function defineErrorCodes<const T extends Record<string, ErrorCodeDefinition>>(codes: T): { readonly [K in keyof T]: K } {
  const names = {} as Record<string, string>;
  for (const [code, definition] of Object.entries(codes)) {
    if (registry.has(code)) throw new Error(`error code ${code} is registered twice`);
    registry.set(code, { code, ...definition });
    names[code] = code;
  }
  return names as { readonly [K in keyof T]: K };
}

export function errorCodeDefinition(code: string): ErrorCodeDefinition | undefined {
  return registry.get(code);
}

/** Every registered code, for the generated error catalogue. */
export function errorCatalogue(): ReadonlyArray<ErrorCodeDefinition & { readonly code: string }> {
  return [...registry.values()].sort((a, b) => a.code.localeCompare(b.code));
}

export class DomainError extends Error {
  readonly code: string;
  readonly status: number;
  readonly param: string | null;
  readonly details: readonly ErrorDetail[] | null;
  readonly meta: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: DomainErrorOptions = {}) {
    super(message, { cause: options.cause });
    const definition = registry.get(code);
    if (!definition) throw new Error(`error code ${code} is not registered`);
    this.name = 'DomainError';
    this.code = code;
    this.status = definition.status;
    this.param = options.param ?? null;
    this.details = options.details ?? null;
    this.meta = options.meta ?? {};
  }
}

export const CommonErrorCode = defineErrorCodes({
  BAD_USER_INPUT: { status: 400, description: 'The request is malformed or an argument is invalid.' },
  VALIDATION_FAILED: { status: 422, description: 'One or more fields failed validation.' },
  UNAUTHENTICATED: { status: 401, description: 'Credentials are missing or invalid.' },
  FORBIDDEN: { status: 403, description: 'The caller may not perform this operation.' },
  NOT_FOUND: { status: 404, description: 'The resource does not exist or is not visible to the caller.' },
  CONFLICT: { status: 409, description: 'The request conflicts with the current state.' },
  RATE_LIMITED: { status: 429, description: 'Too many requests; retry after the given delay.' },
  UPSTREAM_FAILED: { status: 502, description: 'A dependency answered with an error or not at all.' },
  UNAVAILABLE: { status: 503, description: 'The service or one of its dependencies is down.' },
  INTERNAL_SERVER_ERROR: { status: 500, description: 'An unexpected failure; the message is hidden.' },
});
