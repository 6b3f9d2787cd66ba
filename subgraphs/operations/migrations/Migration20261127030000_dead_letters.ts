import { Migration } from '@mikro-orm/migrations';
import { SCHEMA, tenantTable } from './tenant-tables.js';

/**
 * Dead letters per organization (docs/adr/0019): a row for each saga job that failed for
 * good, written when the job gives up and removed when it is retried or deleted, so an
 * organization's dead letters are read from its own index rather than found among every
 * tenant's failed jobs in the queue.
 */
export class Migration20261127030000_dead_letters extends Migration {
  static readonly migrationName = 'Migration20261127030000_dead_letters';

  override up(): void {
    for (const statement of [
      `create table "${SCHEMA}"."dead_letter" (
        "id" uuid primary key default gen_random_uuid(),
        "organization_id" uuid not null references "${SCHEMA}"."organization" ("id"),
        "queue" varchar(64) not null,
        "job_id" varchar(200) not null,
        "saga_id" uuid not null references "${SCHEMA}"."saga" ("id") on delete cascade,
        "step" varchar(64) not null,
        "attempts_made" integer not null,
        "error" text not null,
        "failed_at" timestamptz not null default clock_timestamp()
      )`,
      `create unique index "dead_letter_job_unique" on "${SCHEMA}"."dead_letter" ("queue", "job_id")`,
      `create index "dead_letter_newest_index" on "${SCHEMA}"."dead_letter" ("organization_id", "queue", "failed_at" desc, "id")`,
      ...tenantTable('dead_letter', { entity: 'DeadLetter', audited: false }),
    ]) {
      this.addSql(statement);
    }
  }
}
