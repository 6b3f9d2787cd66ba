import type { GraphQLFormattedError } from 'graphql';
import { CommonErrorCode, DomainError, errorCode, type ErrorKey } from '../contracts/errors.js';

export interface FacadeErrorDetail {
  readonly field: string;
  readonly message: string;
}

/**
 * An error on its way to the wire, in no family's shape yet: the facade builds one
 * from a GraphQL error's extensions, or from a domain error raised at the edge, and the
 * family's mapper turns it into the documented body.
 */
export class FacadeError extends Error {
  constructor(
    readonly status: number,
    /** The wire code. */
    readonly code: string,
    message: string,
    readonly param: string | null = null,
    readonly details: readonly FacadeErrorDetail[] | null = null,
    readonly meta: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'FacadeError';
  }

  static of(key: ErrorKey, message: string, meta: Readonly<Record<string, unknown>> = {}): FacadeError {
    return FacadeError.fromDomain(new DomainError(key, message, { meta }));
  }

  static fromDomain(error: DomainError): FacadeError {
    return new FacadeError(error.status, error.code, error.message, error.param, error.details, error.meta);
  }

  static notFound(path: string): FacadeError {
    return FacadeError.of(CommonErrorCode.NOT_FOUND, `no route for ${path}`);
  }

  /** Any failure on its way to the wire: a refusal as it is, anything unknown as an internal error with its message hidden. */
  static from(error: unknown): FacadeError {
    if (error instanceof FacadeError) return error;
    if (error instanceof DomainError) return FacadeError.fromDomain(error);
    return FacadeError.internal();
  }

  /** Whether a failure is one the edge expected (a refusal), rather than a fault to log. */
  static isExpected(error: unknown): boolean {
    return error instanceof FacadeError || error instanceof DomainError;
  }

  static internal(): FacadeError {
    return FacadeError.of(CommonErrorCode.INTERNAL_SERVER_ERROR, 'Internal server error');
  }

  /** The first error of a GraphQL response decides the REST answer. */
  static fromGraphQL(error: GraphQLFormattedError): FacadeError {
    const { code, http, param, details, ...meta } = (error.extensions ?? {}) as Record<string, unknown>;
    const status = (http as { status?: number } | undefined)?.status ?? 500;
    if (status >= 500 && code === errorCode(CommonErrorCode.INTERNAL_SERVER_ERROR).code) return FacadeError.internal();
    return new FacadeError(
      status,
      typeof code === 'string' ? code : errorCode(CommonErrorCode.INTERNAL_SERVER_ERROR).code,
      error.message,
      typeof param === 'string' ? param : null,
      Array.isArray(details) ? (details as FacadeErrorDetail[]) : null,
      meta,
    );
  }

  /** For a refusal whose list of problems was cut: how many there were (`errorCount`, `truncated`); else nothing. */
  get truncation(): { readonly errorCount: number; readonly truncated: true } | Record<string, never> {
    const { errorCount, truncated } = this.meta;
    return truncated === true && typeof errorCount === 'number' ? { errorCount, truncated } : {};
  }

  /** Whether this is the given registered code. */
  is(key: ErrorKey): boolean {
    return this.code === errorCode(key).code && this.status === errorCode(key).status;
  }
}
