import type { OperationContract } from '../../operation.js';
import { BRIGADE_CONTRACTS } from './brigades.contract.js';
import { PERSONNEL_CONTRACTS } from './personnel.contract.js';
import { hrListTimesheet } from './timesheet.contract.js';

/** Every operation of personnel, brigades and the timesheet. */
export const HR_CONTRACTS: readonly OperationContract[] = [...PERSONNEL_CONTRACTS, ...BRIGADE_CONTRACTS, hrListTimesheet];
