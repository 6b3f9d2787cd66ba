/** The PostgreSQL schema of every operations table. */
export const SCHEMA = 'operations';

/** The role every operations transaction runs as: not the owner of any table, so RLS applies. */
export const APP_ROLE = 'operations_app';
