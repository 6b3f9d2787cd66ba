import { Migration } from '@mikro-orm/migrations';
import { topicFeed } from '../../../contracts/subscription.js';
import { topicFeedDdl } from '../../shared/events/topic-feed.js';

const S = '"research"';

/**
 * Workspaces, keys, the append-only credit ledger with one balance row per workspace and
 * mode (never negative), cases with their messages, research runs and reports (stored
 * whole, shown as summaries), top-ups, and the topic feed behind `threadUpdated`.
 */
export class Migration20261124000000_research extends Migration {
  static readonly migrationName = 'Migration20261124000000_research';

  override up(): void {
    const mode = `"mode" text not null check ("mode" in ('live', 'test'))`;
    for (const statement of [
      `create table ${S}."workspace" (
        "id" text primary key,
        "name" text not null,
        "kind" text not null check ("kind" in ('admin', 'demo', 'user')),
        "owner_subject" text null unique,
        "created_at" timestamptz not null default now()
      )`,
      `create unique index "workspace_one_demo" on ${S}."workspace" (("kind")) where "kind" = 'demo'`,
      `create table ${S}."api_key" (
        "id" text primary key,
        "workspace_id" text not null references ${S}."workspace" ("id"),
        "name" text not null,
        "key_hash" text not null unique,
        "prefix" text not null,
        ${mode},
        "scopes" text[] not null,
        "created_at" timestamptz not null default now(),
        "last_used_at" timestamptz null,
        "rotated_at" timestamptz null,
        "revoked_at" timestamptz null
      )`,
      `create index "api_key_workspace" on ${S}."api_key" ("workspace_id", "created_at" desc)`,
      `create table ${S}."credit_balance" (
        "workspace_id" text not null references ${S}."workspace" ("id"),
        ${mode},
        "balance" integer not null default 0 check ("balance" >= 0),
        primary key ("workspace_id", "mode")
      )`,
      `create table ${S}."credit_ledger" (
        "id" bigserial primary key,
        "workspace_id" text not null,
        "mode" text not null,
        "delta" integer not null check ("delta" <> 0),
        "balance_after" integer not null check ("balance_after" >= 0),
        "kind" text not null check ("kind" in ('grant', 'top_up', 'chat_reserve', 'chat_refund', 'research_charge', 'research_refund')),
        "reference" text null,
        "reason" text null,
        "created_at" timestamptz not null default clock_timestamp(),
        foreign key ("workspace_id", "mode") references ${S}."credit_balance" ("workspace_id", "mode")
      )`,
      `create unique index "credit_ledger_once" on ${S}."credit_ledger" ("kind", "reference") where "kind" <> 'grant'`,
      `create index "credit_ledger_workspace" on ${S}."credit_ledger" ("workspace_id", "mode", "id")`,
      `create function ${S}."credit_ledger_append_only"() returns trigger language plpgsql as $fn$
       begin raise exception 'the credit ledger is append-only'; end $fn$`,
      `create trigger "credit_ledger_append_only" before update or delete on ${S}."credit_ledger"
       for each row execute function ${S}."credit_ledger_append_only"()`,
      `create table ${S}."thread" (
        "id" text primary key,
        "workspace_id" text not null references ${S}."workspace" ("id"),
        ${mode},
        "anamnesis" jsonb not null,
        "anamnesis_hash" text not null,
        "gap_assessment" jsonb not null,
        "message_count" integer not null default 0,
        "latest_completed_report_id" text null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now()
      )`,
      `create index "thread_recent" on ${S}."thread" ("workspace_id", "mode", "updated_at" desc, "id" desc)`,
      `create table ${S}."message" (
        "id" text primary key,
        "thread_id" text not null references ${S}."thread" ("id"),
        "position" integer not null,
        "role" text not null check ("role" in ('user', 'assistant')),
        "content" text not null,
        "status" text not null check ("status" in ('pending', 'complete')),
        "outcome" text null check ("outcome" in ('answered', 'failed')),
        "charge" text null check ("charge" in ('reserved', 'settled', 'refunded')),
        "provider" text null,
        "model" text null,
        "prompt_tokens" integer null,
        "completion_tokens" integer null,
        "upstream_request_id" text null,
        "created_at" timestamptz not null default clock_timestamp(),
        "completed_at" timestamptz null,
        unique ("thread_id", "position")
      )`,
      `create index "message_pending" on ${S}."message" ("created_at") where "status" = 'pending'`,
      `create table ${S}."research_run" (
        "id" text primary key,
        "thread_id" text not null references ${S}."thread" ("id"),
        "workspace_id" text not null,
        ${mode},
        "status" text not null check ("status" in ('queued', 'running', 'completed', 'failed')),
        "anamnesis" jsonb not null,
        "anamnesis_hash" text not null,
        "gap_assessment" jsonb not null,
        "credits_charged" integer not null,
        "refunded" boolean not null default false,
        "report_id" text null,
        "failure" text null,
        "created_at" timestamptz not null default clock_timestamp(),
        "started_at" timestamptz null,
        "finished_at" timestamptz null
      )`,
      `create index "research_run_thread" on ${S}."research_run" ("thread_id", "created_at")`,
      `create index "research_run_active" on ${S}."research_run" ("thread_id", "anamnesis_hash") where "status" in ('queued', 'running')`,
      `create table ${S}."report" (
        "id" text primary key,
        "thread_id" text not null references ${S}."thread" ("id"),
        "run_id" text not null unique references ${S}."research_run" ("id"),
        "anamnesis_hash" text not null,
        "summary_text" text not null,
        "report_json" jsonb not null,
        "provider" text not null,
        "model" text null,
        "prompt_tokens" integer null,
        "completion_tokens" integer null,
        "upstream_request_id" text null,
        "created_at" timestamptz not null,
        "completed_at" timestamptz not null default clock_timestamp()
      )`,
      `create index "report_match" on ${S}."report" ("thread_id", "anamnesis_hash", "completed_at" desc)`,
      `create table ${S}."top_up" (
        "id" text primary key,
        "workspace_id" text not null references ${S}."workspace" ("id"),
        ${mode},
        "usd_quantity" integer not null,
        "credits" integer not null,
        "status" text not null check ("status" in ('open', 'complete')),
        "sandbox" boolean not null,
        "url" text not null,
        "expires_at" timestamptz null,
        "created_at" timestamptz not null default now(),
        "completed_at" timestamptz null
      )`,
      ...topicFeedDdl(topicFeed('research')),
    ]) {
      this.addSql(statement);
    }
  }
}
