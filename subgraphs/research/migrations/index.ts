import { Migration20261122000000_init } from './Migration20261122000000_init.js';
import { Migration20261124000000_research } from './Migration20261124000000_research.js';
import { Migration20261126000000_workspace_owners } from './Migration20261126000000_workspace_owners.js';
import { Migration20261127000000_workspace_sign_out } from './Migration20261127000000_workspace_sign_out.js';
import { Migration20261127090000_offline_billing } from './Migration20261127090000_offline_billing.js';
import { Migration20261127100000_idempotency_keys } from './Migration20261127100000_idempotency_keys.js';

/** Committed migrations, oldest first; a new migration is appended here. */
export const researchMigrations = [
  Migration20261122000000_init,
  Migration20261124000000_research,
  Migration20261126000000_workspace_owners,
  Migration20261127000000_workspace_sign_out,
  Migration20261127090000_offline_billing,
  Migration20261127100000_idempotency_keys,
];
