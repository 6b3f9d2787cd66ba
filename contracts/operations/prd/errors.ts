import { defineErrorCodes } from '../../errors.js';

/** Codes of shift reports (PRD), beside the core's `RECORD_NOT_FOUND`, `STATE_CONFLICT` and `SAGA_ALREADY_RUNNING`. */
export const PrdErrorCode = defineErrorCodes('operations', {
  PRD_SHIFT_REPORT_DUPLICATE: {
    status: 409,
    description: 'The organization has a report for this production object, date and shift type that is not rejected.',
  },
  PRD_REFERENCE_NOT_FOUND: {
    status: 422,
    description:
      'A record the body names by id (production object, employee, position, asset, asset usage of this report, tank, TMC item, warehouse) does not exist, is not visible to the caller or cannot be used.',
  },
  PRD_ENTRY_IN_USE: {
    status: 409,
    description:
      'The asset usage is named by other entries of the report (drilling, fuel, downtime, materials); change or delete them first.',
  },
  PRD_UNIT_MISMATCH: { status: 422, description: 'The unit of a material usage is not the unit the TMC item is counted in.' },
  PRD_WAREHOUSE_REQUIRED: {
    status: 422,
    description: 'Name `warehouseId`: the report’s production object has no single active warehouse to write the usage off.',
  },
});
