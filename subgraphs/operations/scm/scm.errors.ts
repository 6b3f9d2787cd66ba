import { CommonErrorCode, DomainError } from '../../../contracts/errors.js';
import { OperationsErrorCode } from '../../../contracts/operations/errors.js';
import { ScmErrorCode as Code } from '../../../contracts/operations/scm/errors.js';

/** Transport-free errors of suppliers and stock, built by static factories. */
export class ScmError extends DomainError {
  /** A record a request names (in its path or body) that is missing or not visible: the same 404 either way. */
  static notFound(entity: string, param?: string): ScmError {
    return new ScmError(OperationsErrorCode.RECORD_NOT_FOUND, `${entity} not found.`, { param });
  }

  /** A rule across fields that the contract cannot state field by field. */
  static invalid(field: string, message: string): ScmError {
    return new ScmError(CommonErrorCode.VALIDATION_FAILED, `${field}: ${message}`, { param: field, details: [{ field, message }] });
  }

  static taxIdTaken(field: 'bin' | 'iin'): ScmError {
    return new ScmError(OperationsErrorCode.BUSINESS_KEY_TAKEN, `Another supplier of the organization has this ${field.toUpperCase()}.`, {
      param: field,
    });
  }

  static codeTaken(entity: string, field: string): ScmError {
    return new ScmError(OperationsErrorCode.BUSINESS_KEY_TAKEN, `Another ${entity} of the organization has this ${field}.`, {
      param: field,
    });
  }

  static coApproverRequired(): ScmError {
    return new ScmError(Code.SUPPLIER_CO_APPROVER_REQUIRED, 'Archiving an active or suspended supplier needs a second approver.', {
      param: 'coApprovedBy',
    });
  }

  static coApproverInvalid(why: string): ScmError {
    return new ScmError(Code.SUPPLIER_CO_APPROVER_INVALID, `The second approver ${why}.`, { param: 'coApprovedBy' });
  }

  static supplierNotActive(status: string): ScmError {
    return new ScmError(Code.SUPPLIER_NOT_ACTIVE, `The supplier is ${status}; goods are received from active suppliers only.`, {
      param: 'supplierId',
    });
  }

  static itemInactive(code: string): ScmError {
    return new ScmError(Code.TMC_ITEM_INACTIVE, `TMC item ${code} was taken out of accounting.`, { param: 'lines' });
  }

  static itemHasStock(quantity: string): ScmError {
    return new ScmError(Code.TMC_ITEM_HAS_STOCK, `The item still has ${quantity} in stock.`, { meta: { quantity: Number(quantity) } });
  }

  static insufficientStock(itemId: string, available: string, requested: string): ScmError {
    return new ScmError(Code.TMC_INSUFFICIENT_STOCK, `Item ${itemId}: ${available} on hand, ${requested} asked.`, {
      param: 'lines',
      meta: { itemId, available: Number(available), requested: Number(requested) },
    });
  }

  static inventoryInProgress(): ScmError {
    return new ScmError(Code.TMC_INVENTORY_IN_PROGRESS, 'The warehouse has an inventory in progress.', { param: 'warehouseId' });
  }

  static linkedReceiptInvalid(ids: readonly string[]): ScmError {
    return new ScmError(Code.TMC_LINKED_RECEIPT_INVALID, `Not receipts into the request’s warehouse: ${ids.join(', ')}.`, {
      param: 'linkedInboundIds',
    });
  }
}
