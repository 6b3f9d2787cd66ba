import { defineErrorCodes } from '../../errors.js';

/** Codes of the suppliers and stock (SCM) operations, beside the core's `RECORD_NOT_FOUND`, `STATE_CONFLICT` and `BUSINESS_KEY_TAKEN`. */
export const ScmErrorCode = defineErrorCodes('operations', {
  SUPPLIER_CO_APPROVER_REQUIRED: {
    status: 422,
    description: 'Archiving an active or suspended supplier needs `coApprovedBy`, a second approver.',
  },
  SUPPLIER_CO_APPROVER_INVALID: {
    status: 422,
    description: 'The second approver is the actor, or not an active Admin or CEO of the organization.',
  },
  SUPPLIER_NOT_ACTIVE: { status: 422, description: 'Goods are received from active suppliers only.' },
  TMC_ITEM_INACTIVE: { status: 422, description: 'The TMC item was taken out of accounting; it cannot be received or requested.' },
  TMC_ITEM_HAS_STOCK: { status: 409, description: 'The TMC item still has stock in a warehouse; write it off or move it first.' },
  TMC_INSUFFICIENT_STOCK: {
    status: 422,
    description: 'The warehouse holds less of the item than the document takes; stock never goes below zero.',
  },
  TMC_INVENTORY_IN_PROGRESS: { status: 409, description: 'The warehouse has an inventory in progress; complete it first.' },
  TMC_LINKED_RECEIPT_INVALID: {
    status: 422,
    description: 'A receipt linked to the request does not exist or went to another warehouse.',
  },
});
