import type { OperationContract } from '../../operation.js';
import { SHIFT_REPORT_ENTRY_CONTRACTS } from './shift-report-entries.contract.js';
import { SHIFT_REPORT_CONTRACTS } from './shift-reports.contract.js';
import { PRD_STATISTICS_CONTRACTS } from './statistics.contract.js';

/** Every PRD operation: shift reports, their entries, and what approved reports add up to. */
export const PRD_CONTRACTS: readonly OperationContract[] = [
  ...SHIFT_REPORT_CONTRACTS,
  ...SHIFT_REPORT_ENTRY_CONTRACTS,
  ...PRD_STATISTICS_CONTRACTS,
];
