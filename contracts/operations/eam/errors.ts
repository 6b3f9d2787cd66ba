import { defineErrorCodes } from '../../errors.js';

/** Codes of assets, asset classes, maintenance and the movements journal (EAM). */
export const EamErrorCode = defineErrorCodes('operations', {
  ASSET_ALREADY_DECOMMISSIONED: { status: 409, description: 'The asset was decommissioned already.' },
  ASSET_INVENTORY_NUMBER_TAKEN: { status: 409, description: 'Another asset of the organization has this inventory number.' },
  ASSET_ALREADY_AT_OBJECT: { status: 409, description: 'The asset is at that production object already.' },
  ASSET_NOT_IN_REPAIR: { status: 409, description: 'The asset is under planned maintenance, not in repair.' },
  ASSET_CO_APPROVER_INVALID: {
    status: 422,
    description: '`coApprovedBy` is not an active CEO or Engineer of the caller’s organization.',
  },
  ASSET_CO_APPROVER_IS_ACTOR: { status: 422, description: '`coApprovedBy` must be another user than the one decommissioning.' },
  ASSET_MECHANIC_INVALID: { status: 422, description: '`responsibleMechanicId` is not an active Mechanic of the organization.' },
  ASSET_CLASS_CODE_TAKEN: { status: 409, description: 'Another active asset class of the organization has this code.' },
  ASSET_CLASS_IN_USE: { status: 409, description: 'Assets of this class exist; it cannot be deleted.' },
});
