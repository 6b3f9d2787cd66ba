import { Migration } from '@mikro-orm/migrations';
import { topicFeedDdl } from '../../shared/events/topic-feed.js';
import { topicFeed } from '../../../contracts/subscription.js';
import { APP_ROLE, SCHEMA, tenantTable } from './tenant-tables.js';

const FEED = topicFeed('operations');

/**
 * Sagas (docs/adr/0019-sagas.md): one row per saga and one per step, tenant tables like the records
 * the steps change (the engine works inside the saga's organization); and the operations
 * topic feed, whose events `sagaProgress` delivers in order.
 */
export class Migration20261123085000_sagas extends Migration {
  static readonly migrationName = 'Migration20261123085000_sagas';

  override up(): void {
    for (const statement of [
      `create table "${SCHEMA}"."saga" (
        "id" uuid primary key default gen_random_uuid(),
        "organization_id" uuid not null references "${SCHEMA}"."organization" ("id"),
        "type" varchar(100) not null,
        "entity_type" varchar(100) not null,
        "entity_id" uuid not null,
        "actor_id" uuid null,
        "payload" jsonb not null,
        "status" varchar(16) not null default 'running' check ("status" in ('running', 'compensating', 'completed', 'compensated', 'failed')),
        "error" text null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now(),
        "finished_at" timestamptz null
      )`,
      `create unique index "saga_one_running_per_entity" on "${SCHEMA}"."saga" ("organization_id", "entity_type", "entity_id") where "status" in ('running', 'compensating')`,
      `create index "saga_unfinished_index" on "${SCHEMA}"."saga" ("updated_at") where "status" in ('running', 'compensating')`,
      ...tenantTable('saga', { entity: 'Saga', audited: false }),
      `create table "${SCHEMA}"."saga_step" (
        "saga_id" uuid not null references "${SCHEMA}"."saga" ("id") on delete cascade,
        "organization_id" uuid not null,
        "position" smallint not null,
        "name" varchar(64) not null,
        "status" varchar(16) not null default 'pending'
          check ("status" in ('pending', 'running', 'completed', 'failed', 'compensating', 'compensated')),
        "attempts" integer not null default 0,
        "compensation_attempts" integer not null default 0,
        "output" jsonb null,
        "error" text null,
        "started_at" timestamptz null,
        "finished_at" timestamptz null,
        primary key ("saga_id", "name"),
        unique ("saga_id", "position")
      )`,
      ...tenantTable('saga_step', { entity: 'SagaStep', audited: false }),
      // The engine's recovery looks for quiet sagas of every organization (read only).
      `create policy "saga_platform_read" on "${SCHEMA}"."saga" for select using (current_setting('app.platform_read', true) = 'on')`,
      `create policy "saga_step_platform_read" on "${SCHEMA}"."saga_step" for select using (current_setting('app.platform_read', true) = 'on')`,
      `alter table "${SCHEMA}"."asset_movement" add column "saga_id" uuid null references "${SCHEMA}"."saga" ("id")`,
      `create index "asset_movement_saga_index" on "${SCHEMA}"."asset_movement" ("saga_id") where "saga_id" is not null`,
      ...topicFeedDdl(FEED),
      `grant select, insert, update on ${FEED.heads} to ${APP_ROLE}`,
      `grant select, insert on ${FEED.events} to ${APP_ROLE}`,
    ]) {
      this.addSql(statement);
    }
  }
}
