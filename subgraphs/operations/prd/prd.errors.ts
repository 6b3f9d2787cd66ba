import { CommonErrorCode, DomainError } from '../../../contracts/errors.js';
import { PrdErrorCode as Code } from '../../../contracts/operations/prd/errors.js';

/** Transport-free errors of shift reports and their entries. */
export class PrdError extends DomainError {
  static duplicate(): PrdError {
    return new PrdError(
      Code.PRD_SHIFT_REPORT_DUPLICATE,
      'A shift report for this production object, date and shift type exists; only after its rejection can another be created.',
    );
  }

  /** A record the body names that is missing, of another organization, out of the caller's objects, or unusable. */
  static reference(param: string, what: string): PrdError {
    return new PrdError(Code.PRD_REFERENCE_NOT_FOUND, `No such ${what}.`, {
      param,
      details: [{ field: param, message: `no such ${what}` }],
    });
  }

  /** An asset usage other entries of the report name: they would lose their machine. */
  static entryInUse(users: ReadonlyArray<{ kind: string; id: string }>): PrdError {
    return new PrdError(
      Code.PRD_ENTRY_IN_USE,
      `The asset usage is named by ${users.length} other entr${users.length === 1 ? 'y' : 'ies'} of the report; change or delete them first.`,
      { details: users.map((user) => ({ field: user.kind, message: `entry ${user.id} names this asset usage` })) },
    );
  }

  static unitMismatch(unit: string, itemUnit: string): PrdError {
    return new PrdError(Code.PRD_UNIT_MISMATCH, `The item is counted in "${itemUnit}", not "${unit}".`, {
      param: 'unit',
      details: [{ field: 'unit', message: `must be the item’s unit "${itemUnit}"` }],
    });
  }

  static warehouseRequired(found: number): PrdError {
    return new PrdError(
      Code.PRD_WAREHOUSE_REQUIRED,
      `The report’s production object has ${found === 0 ? 'no active warehouse' : 'several active warehouses'}; name warehouseId.`,
      { param: 'warehouseId' },
    );
  }

  /** A rule spanning fields of the body (422, like a bound). */
  static invalid(field: string, message: string): PrdError {
    return new PrdError(CommonErrorCode.VALIDATION_FAILED, `${field}: ${message}`, { param: field, details: [{ field, message }] });
  }
}
