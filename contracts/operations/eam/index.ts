import type { OperationContract } from '../../operation.js';
import { ASSET_CLASS_CONTRACTS } from './asset-classes.contract.js';
import { ASSET_CONTRACTS } from './assets.contract.js';
import { MAINTENANCE_CONTRACTS } from './maintenance.contract.js';
import { eamListMovements } from './movements.contract.js';

/** Every EAM operation: assets, asset classes, maintenance and the movements journal. */
export const EAM_CONTRACTS: readonly OperationContract[] = [
  ...ASSET_CONTRACTS,
  ...ASSET_CLASS_CONTRACTS,
  ...MAINTENANCE_CONTRACTS,
  eamListMovements,
];
