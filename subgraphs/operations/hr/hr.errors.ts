import { DomainError } from '../../../contracts/errors.js';
import { HrErrorCode as Code } from '../../../contracts/operations/hr/errors.js';

/** Transport-free errors of personnel and brigades. */
export class HrError extends DomainError {
  static tabNumberTaken(tabNumber: string): HrError {
    return new HrError(Code.HR_TAB_NUMBER_TAKEN, `Another employee has personnel number "${tabNumber}".`, { param: 'tabNumber' });
  }

  /** A record named in the body that is missing, of another organization or outside the caller's objects. */
  static referenceNotFound(param: string, what: string): HrError {
    return new HrError(Code.HR_REFERENCE_NOT_FOUND, `No such ${what}.`, { param });
  }

  static openAssignments(assignments: readonly string[]): HrError {
    return new HrError(
      Code.HR_OPEN_ASSIGNMENTS,
      `The employee has open assignments: ${assignments.join('; ')}. Close them first, or terminate with force.`,
      { meta: { assignments } },
    );
  }

  static personnelTerminated(param: string): HrError {
    return new HrError(Code.HR_PERSONNEL_TERMINATED, 'The employee is terminated.', { param });
  }

  static alreadyMember(): HrError {
    return new HrError(Code.HR_ALREADY_MEMBER, 'The employee is already an active member of this brigade.', { param: 'personnelId' });
  }

  static otherObject(param: string): HrError {
    return new HrError(Code.HR_OTHER_OBJECT, 'The employee works at another production object than the brigade.', { param });
  }

  static sameObject(): HrError {
    return new HrError(Code.HR_SAME_OBJECT, 'The employee already works at this production object.', { param: 'toObjectId' });
  }

  static brigadeHasMembers(count: number): HrError {
    return new HrError(Code.HR_BRIGADE_HAS_MEMBERS, `The brigade has ${count} active member(s); disband it or move them first.`, {
      meta: { activeMembers: count },
    });
  }

  static dateOrder(param: string, message: string): HrError {
    return new HrError(Code.HR_DATE_ORDER, message, { param });
  }
}
