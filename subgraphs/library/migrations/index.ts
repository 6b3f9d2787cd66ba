import { Migration20261122000000_init } from './Migration20261122000000_init.js';
import { Migration20261122010000_accounts } from './Migration20261122010000_accounts.js';
import { Migration20261122020000_catalog } from './Migration20261122020000_catalog.js';
import { Migration20261123000000_postings } from './Migration20261123000000_postings.js';
import { Migration20261127090000_address_windows } from './Migration20261127090000_address_windows.js';
import { Migration20261127120000_account_keys } from './Migration20261127120000_account_keys.js';

/** Committed migrations, oldest first; a new migration is appended here. */
export const libraryMigrations = [
  Migration20261122000000_init,
  Migration20261122010000_accounts,
  Migration20261122020000_catalog,
  Migration20261123000000_postings,
  Migration20261127090000_address_windows,
  Migration20261127120000_account_keys,
];
