import { DomainError } from '../../../contracts/errors.js';
import { EamErrorCode as Code } from '../../../contracts/operations/eam/errors.js';

/** Transport-free errors of assets, asset classes and maintenance. */
export class EamError extends DomainError {
  static alreadyDecommissioned(): EamError {
    return new EamError(Code.ASSET_ALREADY_DECOMMISSIONED, 'The asset was decommissioned already.');
  }

  static inventoryNumberTaken(inventoryNumber: string): EamError {
    return new EamError(Code.ASSET_INVENTORY_NUMBER_TAKEN, `Another asset has inventory number ${inventoryNumber}.`, {
      param: 'inventoryNumber',
    });
  }

  static alreadyAtObject(): EamError {
    return new EamError(Code.ASSET_ALREADY_AT_OBJECT, 'The asset is at that production object already.', { param: 'toObjectId' });
  }

  static notInRepair(): EamError {
    return new EamError(
      Code.ASSET_NOT_IN_REPAIR,
      'The asset is under planned maintenance, not in repair; complete the maintenance instead.',
    );
  }

  static coApproverInvalid(): EamError {
    return new EamError(Code.ASSET_CO_APPROVER_INVALID, 'coApprovedBy must be an active CEO or Engineer of your organization.', {
      param: 'coApprovedBy',
      details: [{ field: 'coApprovedBy', message: 'must be an active CEO or Engineer of your organization' }],
    });
  }

  static coApproverIsActor(): EamError {
    return new EamError(Code.ASSET_CO_APPROVER_IS_ACTOR, 'The second approver must be someone else than you.', {
      param: 'coApprovedBy',
      details: [{ field: 'coApprovedBy', message: 'must differ from the user decommissioning' }],
    });
  }

  static mechanicInvalid(): EamError {
    return new EamError(Code.ASSET_MECHANIC_INVALID, 'responsibleMechanicId must be an active Mechanic of your organization.', {
      param: 'responsibleMechanicId',
      details: [{ field: 'responsibleMechanicId', message: 'must be an active Mechanic of your organization' }],
    });
  }

  static classCodeTaken(code: string): EamError {
    return new EamError(Code.ASSET_CLASS_CODE_TAKEN, `Another asset class has code ${code}.`, { param: 'code' });
  }

  static classInUse(): EamError {
    return new EamError(Code.ASSET_CLASS_IN_USE, 'Assets of this class exist; the class cannot be deleted.');
  }
}
