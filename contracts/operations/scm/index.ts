import type { OperationContract } from '../../operation.js';
import { SUPPLIER_DETAIL_CONTRACTS } from './supplier-details.contract.js';
import { SUPPLIER_CONTRACTS } from './suppliers.contract.js';
import { TMC_INVENTORY_CONTRACTS } from './tmc-inventories.contract.js';
import { TMC_ITEM_CONTRACTS } from './tmc-items.contract.js';
import { TMC_MOVEMENT_CONTRACTS } from './tmc-movements.contract.js';
import { TMC_REQUEST_CONTRACTS } from './tmc-requests.contract.js';
import { WAREHOUSE_CONTRACTS } from './warehouses.contract.js';

/** Suppliers and stock (SCM): every operation (docs/adr/0012). */
export const SCM_CONTRACTS: readonly OperationContract[] = [
  ...SUPPLIER_CONTRACTS,
  ...SUPPLIER_DETAIL_CONTRACTS,
  ...WAREHOUSE_CONTRACTS,
  ...TMC_ITEM_CONTRACTS,
  ...TMC_MOVEMENT_CONTRACTS,
  ...TMC_REQUEST_CONTRACTS,
  ...TMC_INVENTORY_CONTRACTS,
];
