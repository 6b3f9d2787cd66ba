import { Migration } from '@mikro-orm/migrations';
import { SCHEMA, tenantTable } from './tenant-tables.js';

/** The role the webhook dispatcher works as: it reads every organization's endpoints and deliveries, and nothing else. */
export const DISPATCHER_ROLE = 'operations_webhooks';

const CREATE_DISPATCHER_ROLE = `do $$ begin
  begin
    create role ${DISPATCHER_ROLE} nologin;
  exception when duplicate_object or unique_violation then null;
  end;
  begin
    execute 'grant ${DISPATCHER_ROLE} to ' || quote_ident(current_user);
  exception when others then null;
  end;
end $$`;

/**
 * Webhooks (docs/adr/0015-webhooks.md): endpoints and deliveries are tenant tables (the API
 * sees its organization's rows only); the dispatcher, which runs outside any request, works as
 * `operations_webhooks`, a role that owns nothing and whose own policies show it every
 * organization's rows of these two tables — and of no other tenant table. Its cursor over the
 * outbox is a one-row platform table.
 */
export class Migration20261123070000_webhooks extends Migration {
  static readonly migrationName = 'Migration20261123070000_webhooks';

  override up(): void {
    const endpoint = `"${SCHEMA}"."webhook_endpoint"`;
    const delivery = `"${SCHEMA}"."webhook_delivery"`;
    const cursor = `"${SCHEMA}"."webhook_dispatch_cursor"`;
    for (const statement of [
      `create table ${endpoint} (
        "id" uuid primary key default gen_random_uuid(),
        "organization_id" uuid not null references "${SCHEMA}"."organization" ("id"),
        "url" varchar(2048) not null,
        "description" varchar(500) not null default '',
        "event_types" text[] not null check (cardinality("event_types") between 1 and 50),
        "active" boolean not null default true,
        "secret_sealed" text not null,
        "previous_secret_sealed" text null,
        "previous_secret_expires_at" timestamptz null,
        "secret_rotated_at" timestamptz null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now()
      )`,
      `create index "webhook_endpoint_organization_index" on ${endpoint} ("organization_id", "created_at", "id")`,
      ...tenantTable('webhook_endpoint', { entity: 'WebhookEndpoint', hidden: ['secret_sealed', 'previous_secret_sealed'] }),
      `create table ${delivery} (
        "id" uuid primary key default gen_random_uuid(),
        "organization_id" uuid not null references "${SCHEMA}"."organization" ("id"),
        "endpoint_id" uuid not null references ${endpoint} ("id") on delete cascade,
        "event_sequence" bigint not null references "${SCHEMA}"."outbox_event" ("sequence"),
        "event_id" uuid not null,
        "event_type" text not null,
        "status" varchar(16) not null default 'pending' check ("status" in ('pending', 'delivered', 'failed')),
        "attempts" integer not null default 0,
        "max_attempts" integer not null default 8,
        "next_attempt_at" timestamptz null,
        "last_attempt_at" timestamptz null,
        "last_response_status" integer null,
        "last_error" varchar(1000) null,
        "delivered_at" timestamptz null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now(),
        unique ("endpoint_id", "event_id")
      )`,
      `create index "webhook_delivery_log_index" on ${delivery} ("endpoint_id", "event_sequence" desc, "id" desc)`,
      `create index "webhook_delivery_due_index" on ${delivery} ("next_attempt_at") where "status" = 'pending'`,
      `create index "webhook_delivery_settled_index" on ${delivery} ("updated_at") where "status" <> 'pending'`,
      // Working data, like import batches: every attempt rewrites the row, so it is not audited.
      ...tenantTable('webhook_delivery', { entity: 'WebhookDelivery', audited: false }),
      `create table ${cursor} (
        "singleton" boolean primary key default true check ("singleton"),
        "sequence" bigint not null,
        "updated_at" timestamptz not null default now()
      )`,
      `insert into ${cursor} ("sequence") select coalesce(max("sequence"), 0) from "${SCHEMA}"."outbox_event"`,
      CREATE_DISPATCHER_ROLE,
      `grant usage on schema "${SCHEMA}" to ${DISPATCHER_ROLE}`,
      `create policy "webhook_endpoint_dispatcher" on ${endpoint} for select to ${DISPATCHER_ROLE} using (true)`,
      `create policy "webhook_delivery_dispatcher" on ${delivery} for all to ${DISPATCHER_ROLE} using (true) with check (true)`,
      `grant select on ${endpoint} to ${DISPATCHER_ROLE}`,
      `grant select, insert, update, delete on ${delivery} to ${DISPATCHER_ROLE}`,
      `grant select on "${SCHEMA}"."outbox_event" to ${DISPATCHER_ROLE}`,
      `grant select, update on ${cursor} to ${DISPATCHER_ROLE}`,
    ]) {
      this.addSql(statement);
    }
  }
}
