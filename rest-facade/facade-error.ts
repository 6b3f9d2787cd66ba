import type { GraphQLFormattedError } from 'graphql';

export interface FacadeErrorDetail {
  readonly field: string;
  readonly message: string;
}

/**
 * An error on its way to the wire, in no family's shape yet: the facade builds one
 * from a GraphQL error's extensions (or from its own edge checks), and the family's
 * mapper turns it into the documented body.
 */
export class FacadeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
    readonly details: readonly FacadeErrorDetail[] | null = null,
    readonly meta: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'FacadeError';
  }

  static notFound(path: string): FacadeError {
    return new FacadeError(404, 'NOT_FOUND', `no route for ${path}`);
  }

  static internal(): FacadeError {
    return new FacadeError(500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
  }

  /** The first error of a GraphQL response decides the REST answer. */
  static fromGraphQL(error: GraphQLFormattedError): FacadeError {
    const { code, http, param, details, ...meta } = (error.extensions ?? {}) as Record<string, unknown>;
    const status = (http as { status?: number } | undefined)?.status ?? 500;
    if (status >= 500 && code === 'INTERNAL_SERVER_ERROR') return FacadeError.internal();
    return new FacadeError(
      status,
      typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR',
      error.message,
      typeof param === 'string' ? param : null,
      Array.isArray(details) ? (details as FacadeErrorDetail[]) : null,
      meta,
    );
  }
}
