import { DomainError, MAX_LISTED_PROBLEMS, truncationOf, type ErrorDetail } from '../../contracts/errors.js';
import { LibraryErrorCode } from '../../contracts/library/errors.js';

/** One invalid parameter, as `details` lists it. */
export interface ParameterProblem {
  readonly field: string;
  readonly message: string;
}

/** Transport-free library errors, built by static factories. */
export class LibraryError extends DomainError {
  static invalidParameters(all: readonly ParameterProblem[]): LibraryError {
    const problems = all.slice(0, MAX_LISTED_PROBLEMS);
    const first = problems[0];
    const message = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    return new LibraryError(LibraryErrorCode.invalid_parameter, message || 'invalid parameters', {
      param: first?.field ?? null,
      details: problems as ErrorDetail[],
      meta: truncationOf(all.length),
    });
  }

  /** A required parameter is absent or blank; returns the value otherwise. */
  static required(field: string, value: string | null | undefined): string {
    if (value === null || value === undefined || value.trim() === '')
      throw LibraryError.invalidParameters([{ field, message: 'is required' }]);
    return value.trim();
  }

  static searchUnavailable(engine: string, cause: unknown): LibraryError {
    // The cause is logged by whoever catches it; the wire only learns which engine failed.
    return new LibraryError(LibraryErrorCode.search_unavailable, `the search engine (${engine}) did not answer`, { cause });
  }

  /** A malformed import file; `validation` is the admin family's `detail` list. */
  /** The upload's `Content-Type` names no import format. */
  static unknownImportFormat(formats: readonly string[]): LibraryError {
    const message = `format must be one of ${formats.join(', ')}`;
    return new LibraryError(LibraryErrorCode.invalid_import, message, {
      param: 'content-type',
      details: [{ field: 'content-type', message }],
      meta: { validation: [{ loc: ['header', 'content-type'], msg: message, type: 'value_error', input: null, ctx: { formats } }] },
    });
  }

  static invalidImport(message: string, line: number | null, field: string | null): LibraryError {
    const loc: Array<string | number> = ['body'];
    if (line !== null) loc.push(line);
    if (field !== null) loc.push(field);
    return new LibraryError(LibraryErrorCode.invalid_import, message, {
      param: field,
      details: [{ field: field ?? 'body', message }],
      meta: { validation: [{ loc, msg: message, type: 'value_error', input: null, ctx: { line, field } }] },
    });
  }
}
