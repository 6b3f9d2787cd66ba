import { Migration } from '@mikro-orm/migrations';
import { DISPATCHER_ROLE } from './Migration20261123070000_webhooks.js';
import { SCHEMA } from './tenant-tables.js';

/**
 * Outbox retention: the webhook dispatcher, which alone knows which events it has fanned out
 * and which deliveries still need them, deletes delivered events past `OUTBOX_RETENTION_DAYS`.
 */
export class Migration20261127000000_outbox_retention extends Migration {
  static readonly migrationName = 'Migration20261127000000_outbox_retention';

  override up(): void {
    this.addSql(`grant delete on "${SCHEMA}"."outbox_event" to ${DISPATCHER_ROLE}`);
  }
}
