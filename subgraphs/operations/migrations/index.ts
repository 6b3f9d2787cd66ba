import { Migration20261122000000_init } from './Migration20261122000000_init.js';
import { Migration20261123010000_core } from './Migration20261123010000_core.js';
import { Migration20261123020000_reference_books } from './Migration20261123020000_reference_books.js';
import { Migration20261123030000_eam_fuel } from './Migration20261123030000_eam_fuel.js';
import { Migration20261123040000_scm } from './Migration20261123040000_scm.js';
import { Migration20261123050000_hr_documents } from './Migration20261123050000_hr_documents.js';
import { Migration20261123060000_identity } from './Migration20261123060000_identity.js';
import { Migration20261123070000_webhooks } from './Migration20261123070000_webhooks.js';
import { Migration20261123080000_oidc_provider } from './Migration20261123080000_oidc_provider.js';
import { Migration20261123085000_sagas } from './Migration20261123085000_sagas.js';
import { Migration20261123090000_prd } from './Migration20261123090000_prd.js';
import { Migration20261127000000_outbox_retention } from './Migration20261127000000_outbox_retention.js';
import { Migration20261127010000_system_role_permissions } from './Migration20261127010000_system_role_permissions.js';
import { Migration20261127020000_brigade_trash } from './Migration20261127020000_brigade_trash.js';
import { Migration20261127030000_dead_letters } from './Migration20261127030000_dead_letters.js';
import { Migration20261127034000_notifications } from './Migration20261127034000_notifications.js';
import { Migration20261127040000_journal_ops } from './Migration20261127040000_journal_ops.js';
import { Migration20261127020000_shift_report_corrections } from './Migration20261127020000_shift_report_corrections.js';
import { Migration20261127020000_api_access } from './Migration20261127020000_api_access.js';
import { Migration20261127150000_saga_wake_after_commit } from './Migration20261127150000_saga_wake_after_commit.js';

/** Committed migrations, oldest first; a new migration is appended here. */
export const operationsMigrations = [
  Migration20261122000000_init,
  Migration20261123010000_core,
  Migration20261123020000_reference_books,
  Migration20261123030000_eam_fuel,
  Migration20261123040000_scm,
  Migration20261123050000_hr_documents,
  Migration20261123060000_identity,
  Migration20261123070000_webhooks,
  Migration20261123080000_oidc_provider,
  Migration20261123085000_sagas,
  Migration20261123090000_prd,
  Migration20261127000000_outbox_retention,
  Migration20261127010000_system_role_permissions,
  Migration20261127020000_brigade_trash,
  Migration20261127030000_dead_letters,
  Migration20261127034000_notifications,
  Migration20261127020000_shift_report_corrections,
  Migration20261127020000_api_access,
  Migration20261127040000_journal_ops,
  Migration20261127150000_saga_wake_after_commit,
];
