import type { OperationContract } from '../../operation.js';
import { SUPPLY_CONTRACTS } from './supplies.contract.js';
import { SUPPLY_REQUEST_CONTRACTS } from './supply-requests.contract.js';
import { TANK_CONTRACTS } from './tanks.contract.js';

/** Every fuel operation (SCM): tanks, supply requests and supplies. */
export const FUEL_CONTRACTS: readonly OperationContract[] = [...TANK_CONTRACTS, ...SUPPLY_REQUEST_CONTRACTS, ...SUPPLY_CONTRACTS];
