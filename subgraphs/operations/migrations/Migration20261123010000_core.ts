import { Migration } from '@mikro-orm/migrations';
import { APP_ROLE, AUDIT_FUNCTION, auditedTable, CREATE_APP_ROLE, SCHEMA, tenantTable } from './tenant-tables.js';

/**
 * The operations core: organizations, users and tokens (platform tables), the audit
 * log, the outbox of events, idempotency keys, import batches, and the application
 * role every operations transaction runs as (docs/adr/0008).
 */
export class Migration20261123010000_core extends Migration {
  static readonly migrationName = 'Migration20261123010000_core';

  override up(): void {
    for (const statement of [
      CREATE_APP_ROLE,
      `grant usage on schema "${SCHEMA}" to ${APP_ROLE}`,
      `create table "${SCHEMA}"."audit_log" (
        "id" uuid primary key default gen_random_uuid(),
        "at" timestamptz not null default clock_timestamp(),
        "organization_id" uuid null,
        "actor_id" uuid null,
        "entity_type" text not null,
        "entity_id" text not null,
        "action" text not null check ("action" in ('create', 'update', 'delete')),
        "operation" text null,
        "changes" jsonb not null,
        "request_id" text null
      )`,
      `create index "audit_log_entity_index" on "${SCHEMA}"."audit_log" ("organization_id", "entity_type", "entity_id", "at" desc)`,
      `alter table "${SCHEMA}"."audit_log" enable row level security`,
      `alter table "${SCHEMA}"."audit_log" force row level security`,
      `create policy "audit_log_read" on "${SCHEMA}"."audit_log" for select using ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid)`,
      `create policy "audit_log_write" on "${SCHEMA}"."audit_log" for insert with check (true)`,
      `grant select, insert on "${SCHEMA}"."audit_log" to ${APP_ROLE}`,
      AUDIT_FUNCTION,
      `create table "${SCHEMA}"."organization" (
        "id" uuid primary key default gen_random_uuid(),
        "slug" varchar(50) not null unique,
        "name" varchar(200) not null,
        "status" varchar(16) not null default 'active' check ("status" in ('active', 'deactivated')),
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now()
      )`,
      ...auditedTable('organization', { entity: 'Organization', organizationColumn: 'id' }),
      `create table "${SCHEMA}"."app_user" (
        "id" uuid primary key default gen_random_uuid(),
        "email" varchar(254) not null,
        "password_hash" text not null,
        "name" varchar(200) not null,
        "organization_id" uuid null references "${SCHEMA}"."organization" ("id"),
        "roles" text[] not null default '{}',
        "object_ids" uuid[] not null default '{}',
        "super_admin" boolean not null default false,
        "active" boolean not null default true,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now(),
        check ("super_admin" or "organization_id" is not null)
      )`,
      `create unique index "app_user_email_unique" on "${SCHEMA}"."app_user" (lower("email"))`,
      `create index "app_user_organization_index" on "${SCHEMA}"."app_user" ("organization_id", "id")`,
      ...auditedTable('app_user', { entity: 'User', organizationColumn: 'organization_id', hidden: ['password_hash'] }),
      `create table "${SCHEMA}"."refresh_token" (
        "id" uuid primary key default gen_random_uuid(),
        "user_id" uuid not null references "${SCHEMA}"."app_user" ("id") on delete cascade,
        "family_id" uuid not null,
        "token_hash" char(64) not null unique,
        "access_jti" uuid not null,
        "expires_at" timestamptz not null,
        "rotated_at" timestamptz null,
        "revoked_at" timestamptz null,
        "created_at" timestamptz not null default now()
      )`,
      `create index "refresh_token_family_index" on "${SCHEMA}"."refresh_token" ("family_id")`,
      `create table "${SCHEMA}"."revoked_access_token" ("jti" uuid primary key, "expires_at" timestamptz not null)`,
      `create table "${SCHEMA}"."signing_key" (
        "kid" text primary key,
        "alg" text not null,
        "public_jwk" jsonb not null,
        "private_jwk" text not null,
        "created_at" timestamptz not null default now()
      )`,
      `grant select, insert, update, delete on "${SCHEMA}"."refresh_token", "${SCHEMA}"."revoked_access_token", "${SCHEMA}"."signing_key" to ${APP_ROLE}`,
      `create table "${SCHEMA}"."idempotency_key" (
        "organization_id" uuid not null,
        "user_id" uuid not null,
        "operation" text not null,
        "key" uuid not null,
        "request_hash" char(64) not null,
        "result" jsonb not null,
        "created_at" timestamptz not null default now(),
        primary key ("organization_id", "user_id", "operation", "key")
      )`,
      `create index "idempotency_key_created_index" on "${SCHEMA}"."idempotency_key" ("created_at")`,
      `alter table "${SCHEMA}"."idempotency_key" enable row level security`,
      `alter table "${SCHEMA}"."idempotency_key" force row level security`,
      `create policy "idempotency_key_tenant" on "${SCHEMA}"."idempotency_key" using ("organization_id" = coalesce(nullif(current_setting('app.organization_id', true), '')::uuid, '00000000-0000-0000-0000-000000000000'))`,
      `grant select, insert, update, delete on "${SCHEMA}"."idempotency_key" to ${APP_ROLE}`,
      `create table "${SCHEMA}"."outbox_event" (
        "sequence" bigserial primary key,
        "id" uuid not null unique default gen_random_uuid(),
        "type" text not null,
        "organization_id" uuid null,
        "payload" jsonb not null,
        "occurred_at" timestamptz not null default clock_timestamp()
      )`,
      `create function "${SCHEMA}"."notify_event"() returns trigger language plpgsql as $fn$
       begin perform pg_notify('${SCHEMA}_events', new."sequence"::text); return null; end $fn$`,
      `create trigger "outbox_event_notify" after insert on "${SCHEMA}"."outbox_event" for each row execute function "${SCHEMA}"."notify_event"()`,
      `grant select, insert on "${SCHEMA}"."outbox_event" to ${APP_ROLE}`,
      `grant usage, select on sequence "${SCHEMA}"."outbox_event_sequence_seq" to ${APP_ROLE}`,
      `create table "${SCHEMA}"."import_batch" (
        "id" uuid primary key default gen_random_uuid(),
        "organization_id" uuid not null references "${SCHEMA}"."organization" ("id"),
        "book" text not null,
        "mode" text not null check ("mode" in ('merge', 'full_replace')),
        "rows" jsonb not null,
        "diff" jsonb not null,
        "total_rows" integer not null,
        "created_by" uuid not null,
        "created_at" timestamptz not null default now(),
        "expires_at" timestamptz not null,
        "committed_at" timestamptz null,
        "applied" integer null,
        "event_id" uuid null
      )`,
      ...tenantTable('import_batch', { entity: 'ImportBatch', audited: false }),
    ]) {
      this.addSql(statement);
    }
  }
}
