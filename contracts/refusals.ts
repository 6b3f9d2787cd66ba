import { CommonErrorCode, DomainError, MAX_LISTED_PROBLEMS, truncationOf } from './errors.js';
import type { Family } from './families.js';
import { contractFamily, dottedPath, type InputIssue } from './input.js';
import { adminRefusal, libraryRefusal } from './library/refusals.js';
import type { OperationContract } from './operation.js';

/** Field failures as Problem `errors` and research `details` list them. */
const fieldErrors = (issues: readonly InputIssue[]) =>
  issues.map((issue) => ({ field: dottedPath(issue.path) || issue.location, message: issue.message }));

function validationFailed(issues: readonly InputIssue[]): DomainError {
  const errors = fieldErrors(issues);
  const first = errors[0];
  return new DomainError(CommonErrorCode.VALIDATION_FAILED, first ? `${first.field}: ${first.message}` : 'invalid input', {
    param: first?.field ?? null,
    details: errors,
  });
}

/** How each family refuses invalid input. */
const FAMILY_REFUSALS: Readonly<Record<Family, (issues: readonly InputIssue[]) => DomainError>> = {
  library: libraryRefusal,
  'library-admin': adminRefusal,
  research: validationFailed,
  operations: validationFailed,
};

/**
 * The error for a contract's invalid input: its own refusal, else its family's, listing
 * the first `MAX_LISTED_PROBLEMS` problems of `count` (default: those given); when there
 * were more, `errorCount` and `truncated` say so.
 */
export function refusalOf(contract: OperationContract, issues: readonly InputIssue[], count = issues.length): DomainError {
  const listed = issues.slice(0, MAX_LISTED_PROBLEMS);
  const error = (contract.refusal ?? FAMILY_REFUSALS[contractFamily(contract)])(listed);
  const total = Math.max(count, issues.length);
  if (total <= listed.length) return error;
  return new DomainError(error.key, error.message, {
    param: error.param,
    details: error.details,
    meta: { ...error.meta, ...truncationOf(total) },
  });
}
