import { Migration } from '@mikro-orm/migrations';

/**
 * Authenticates and counts one call in one statement; PL/pgSQL keeps its plan per
 * session, so a call costs no parse or plan. `found` reads the key by its hash with
 * the limits in force (its plan's, or its own daily quota; plan limits come from the
 * application as arrays, unknown plans take the defaults); `counted` upserts the
 * key's row of the UTC day only for an active key and, under the row lock PostgreSQL
 * takes for `on conflict do update`, its `where` re-checks both windows against the
 * latest committed counts. A call that would pass either limit updates nothing and
 * returns no count, so it consumes nothing, and N concurrent calls admit exactly the
 * remaining allowance. The per-operation log is written only for a counted call. A
 * minute older than the stored one (a lagging instance clock) counts in the stored
 * minute rather than resetting it. Returns no row for an unknown key.
 *
 * `p_async_commit` (set only when the call is its own transaction) lets the commit
 * return before its WAL is flushed: a database crash may forget the last fraction of
 * a second of counts, never corrupt them, and locking — hence exactness — is the same.
 */
const ADMIT_CALL_FUNCTION = `create function "library"."admit_call"(
  p_key_hash varchar, p_day date, p_minute integer, p_now timestamptz, p_operation varchar,
  p_plan_names varchar[], p_plan_rpm integer[], p_plan_rpd integer[], p_default_rpm integer, p_default_rpd integer,
  p_async_commit boolean
) returns table ("id" integer, "key_hash" varchar, "plan" varchar, "status" varchar, "rpd_override" integer, "day_count" integer, "minute_count" integer)
language plpgsql as $fn$
#variable_conflict use_column
begin
  if p_async_commit then
    perform set_config('synchronous_commit', 'off', true);
  end if;
  return query
  with plans as (
    select * from unnest(p_plan_names, p_plan_rpm, p_plan_rpd) as p("name", "rpm", "rpd")
  ), found as (
    select k."id", k."key_hash", k."plan", k."status", k."rpd_override",
           coalesce(p."rpm", p_default_rpm) as "minute_limit", coalesce(k."rpd_override", p."rpd", p_default_rpd) as "day_limit"
    from "library"."api_key" k left join plans p on p."name" = k."plan"
    where k."key_hash" = p_key_hash
  ), counted as (
    insert into "library"."api_key_window" as w
      ("key_id", "day", "day_count", "minute", "minute_count", "day_limit", "minute_limit", "last_used_at")
    select f."id", p_day, 1, p_minute, 1, f."day_limit", f."minute_limit", p_now from found f where f."status" = 'active'
    on conflict ("key_id", "day") do update set
      "day_count" = w."day_count" + 1,
      "minute_count" = case when excluded."minute" > w."minute" then 1 else w."minute_count" + 1 end,
      "minute" = greatest(w."minute", excluded."minute"),
      "day_limit" = excluded."day_limit",
      "minute_limit" = excluded."minute_limit",
      "last_used_at" = greatest(w."last_used_at", excluded."last_used_at")
    where w."day_count" < excluded."day_limit" and (excluded."minute" > w."minute" or w."minute_count" < excluded."minute_limit")
    returning w."key_id", w."day_count", w."minute_count"
  ), logged as (
    insert into "library"."api_key_usage" as u ("key_id", "day", "operation", "calls")
    select c."key_id", p_day, p_operation, 1 from counted c
    on conflict ("key_id", "day", "operation") do update set "calls" = u."calls" + 1
  )
  select f."id", f."key_hash", f."plan", f."status", f."rpd_override", c."day_count", c."minute_count"
  from found f left join counted c on true;
end
$fn$;`;

/**
 * API keys and the counters of their limits. Counting is done by atomic upserts on
 * `api_key_window` (one row per key and UTC day, holding the day's count, the
 * current minute's, and the limits in force at the last counted call), so every
 * instance shares one exact count (docs/adr/0002).
 */
export class Migration20261122010000_accounts extends Migration {
  static readonly migrationName = 'Migration20261122010000_accounts';

  override up(): void {
    this.addSql(`create table "library"."api_key" (
      "id" serial primary key,
      "key_hash" varchar(64) not null,
      "prefix" varchar(16) not null,
      "email" varchar(254) not null,
      "org" varchar(200) null,
      "plan" varchar(32) not null,
      "status" varchar(16) not null default 'active',
      "rpd_override" integer null,
      "source" varchar(16) not null,
      "created_at" timestamptz not null default now(),
      constraint "api_key_key_hash_unique" unique ("key_hash"),
      constraint "api_key_status_check" check ("status" in ('active', 'suspended', 'revoked')),
      constraint "api_key_rpd_override_check" check ("rpd_override" is null or "rpd_override" >= 1)
    );`);
    this.addSql(`create table "library"."api_key_window" (
      "key_id" integer not null references "library"."api_key" ("id") on delete cascade,
      "day" date not null,
      "day_count" integer not null,
      "minute" integer not null,
      "minute_count" integer not null,
      "day_limit" integer not null,
      "minute_limit" integer not null,
      "last_used_at" timestamptz not null,
      primary key ("key_id", "day")
    );`);
    this.addSql('create index "api_key_window_day_index" on "library"."api_key_window" ("day");');
    this.addSql(`create table "library"."api_key_usage" (
      "key_id" integer not null references "library"."api_key" ("id") on delete cascade,
      "day" date not null,
      "operation" varchar(64) not null,
      "calls" integer not null,
      primary key ("key_id", "day", "operation")
    );`);
    this.addSql(ADMIT_CALL_FUNCTION);
    this.addSql(`create table "library"."registration_count" (
      "scope" varchar(8) not null,
      "subject" varchar(254) not null,
      "day" date not null,
      "count" integer not null,
      primary key ("scope", "subject", "day"),
      constraint "registration_count_scope_check" check ("scope" in ('email', 'ip'))
    );`);
  }
}
