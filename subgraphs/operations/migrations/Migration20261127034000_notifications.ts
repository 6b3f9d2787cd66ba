import { Migration } from '@mikro-orm/migrations';
import { SCHEMA, tenantTable } from './tenant-tables.js';

/**
 * In-app notifications: one row per user and notice (a fuel supply request awaiting their
 * approval), listed newest first by the user it is for. Working data, not records: not audited.
 */
export class Migration20261127034000_notifications extends Migration {
  static readonly migrationName = 'Migration20261127034000_notifications';

  override up(): void {
    this.addSql(`create table "${SCHEMA}"."notification" (
      "id" uuid primary key default gen_random_uuid(),
      "organization_id" uuid not null references "${SCHEMA}"."organization" ("id"),
      "user_id" uuid not null references "${SCHEMA}"."app_user" ("id") on delete cascade,
      "type" varchar(200) not null,
      "title" varchar(500) not null,
      "body" text not null,
      "data" jsonb not null default '{}',
      "read_at" timestamptz null,
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "notification_user_index" on "${SCHEMA}"."notification" ("user_id", "created_at" desc, "id" desc)`);
    for (const statement of tenantTable('notification', { entity: 'Notification', audited: false })) this.addSql(statement);
  }
}
