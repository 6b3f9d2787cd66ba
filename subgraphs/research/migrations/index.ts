import { Migration20261122000000_init } from './Migration20261122000000_init.js';

/** Committed migrations, oldest first; a new migration is appended here. */
export const researchMigrations = [Migration20261122000000_init];
