import { defineErrorCodes } from '../../errors.js';

/** Codes of personnel and brigades (HR). */
export const HrErrorCode = defineErrorCodes('operations', {
  HR_TAB_NUMBER_TAKEN: { status: 409, description: 'Another employee of the organization has this personnel number (`tabNumber`).' },
  HR_REFERENCE_NOT_FOUND: {
    status: 422,
    description: 'A record the body names by id (position, production object, employee) does not exist or is not visible to the caller.',
  },
  HR_OPEN_ASSIGNMENTS: {
    status: 409,
    description: 'The employee still has open assignments (brigade membership, brigadier, shift report); close them or pass `force`.',
  },
  HR_PERSONNEL_TERMINATED: { status: 409, description: 'The employee is terminated and cannot be assigned.' },
  HR_ALREADY_MEMBER: { status: 409, description: 'The employee is already an active member of this brigade.' },
  HR_OTHER_OBJECT: { status: 422, description: 'The employee works at another production object than the brigade.' },
  HR_SAME_OBJECT: { status: 422, description: 'The employee already works at this production object.' },
  HR_BRIGADE_HAS_MEMBERS: {
    status: 409,
    description: 'The brigade still has active members; disband it or move them before it goes to the trash.',
  },
  HR_DATE_ORDER: {
    status: 422,
    description: 'A date comes before the one it must follow (termination before hiring, a membership before the current one began).',
  },
});
