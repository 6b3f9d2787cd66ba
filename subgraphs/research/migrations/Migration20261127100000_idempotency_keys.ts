import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys of research writes (docs/adr/0008, the same mechanism as operations):
 * scoped to the caller's workspace and key mode and the operation; the stored answer is
 * replayed for 24 hours.
 */
export class Migration20261127100000_idempotency_keys extends Migration {
  static readonly migrationName = 'Migration20261127100000_idempotency_keys';

  override up(): void {
    this.addSql(`create table "research"."idempotency_key" (
      "workspace_id" text not null,
      "mode" text not null,
      "operation" text not null,
      "key" uuid not null,
      "request_hash" char(64) not null,
      "result" jsonb not null,
      "created_at" timestamptz not null default now(),
      primary key ("workspace_id", "mode", "operation", "key")
    )`);
    this.addSql(`create index "idempotency_key_created_index" on "research"."idempotency_key" ("created_at")`);
  }
}
