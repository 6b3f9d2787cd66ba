import { Migration } from '@mikro-orm/migrations';
import { APP_ROLE, SCHEMA } from './tenant-tables.js';

/**
 * Accounts and identity (seed 001, parts B and C): registration and verification,
 * second factor, IP whitelist, one-time tokens, sign-in history, attempt counters, external
 * identity providers, business API keys with daily quotas. These are platform
 * tables (read by guards and workers before any tenant is known); their services filter by
 * organization (docs/adr/0009).
 */
export class Migration20261123060000_identity extends Migration {
  static readonly migrationName = 'Migration20261123060000_identity';

  override up(): void {
    const platform = (table: string) => `grant select, insert, update, delete on "${SCHEMA}"."${table}" to ${APP_ROLE}`;
    for (const statement of [
      `alter table "${SCHEMA}"."app_user" drop constraint if exists "app_user_check"`,
      `alter table "${SCHEMA}"."app_user"
        add column "email_verified_at" timestamptz null,
        add column "banned_at" timestamptz null,
        add column "two_factor_email" boolean not null default false,
        add column "totp_secret" text null,
        add column "totp_enabled" boolean not null default false,
        add column "ip_whitelist" boolean not null default false,
        add column "onboarding" jsonb not null default '{}',
        add column "referral_code" varchar(100) null,
        add column "affiliate_code" varchar(100) null,
        add column "invitation_code" varchar(100) null`,
      `drop trigger "app_user_audit" on "${SCHEMA}"."app_user"`,
      `create trigger "app_user_audit" after insert or update or delete on "${SCHEMA}"."app_user" for each row execute function "${SCHEMA}"."audit_row"('User', 'organization_id', '{password_hash,totp_secret}')`,
      `update "${SCHEMA}"."app_user" set "email_verified_at" = "created_at"`,
      `alter table "${SCHEMA}"."app_user" alter column "password_hash" drop not null`,
      `alter table "${SCHEMA}"."organization" add column "plan" varchar(16) not null default 'free' check ("plan" in ('free', 'pro', 'enterprise'))`,
      `create table "${SCHEMA}"."account_token" (
        "token_hash" char(64) primary key,
        "user_id" uuid not null references "${SCHEMA}"."app_user" ("id") on delete cascade,
        "purpose" varchar(32) not null,
        "payload" jsonb not null default '{}',
        "expires_at" timestamptz not null,
        "used_at" timestamptz null,
        "created_at" timestamptz not null default now()
      )`,
      `create index "account_token_user_index" on "${SCHEMA}"."account_token" ("user_id", "purpose")`,
      `create table "${SCHEMA}"."two_factor_challenge" (
        "id" uuid primary key default gen_random_uuid(),
        "user_id" uuid not null references "${SCHEMA}"."app_user" ("id") on delete cascade,
        "code_hash" char(64) null,
        "code_expires_at" timestamptz null,
        "attempts" integer not null default 0,
        "ip" text null,
        "user_agent" text null,
        "expires_at" timestamptz not null,
        "used_at" timestamptz null
      )`,
      `create table "${SCHEMA}"."backup_code" (
        "user_id" uuid not null references "${SCHEMA}"."app_user" ("id") on delete cascade,
        "code_hash" char(64) not null,
        "used_at" timestamptz null,
        primary key ("user_id", "code_hash")
      )`,
      `create table "${SCHEMA}"."allowed_ip" (
        "user_id" uuid not null references "${SCHEMA}"."app_user" ("id") on delete cascade,
        "ip" text not null,
        "approved_at" timestamptz not null default now(),
        primary key ("user_id", "ip")
      )`,
      `create table "${SCHEMA}"."login_event" (
        "id" uuid primary key default gen_random_uuid(),
        "user_id" uuid null references "${SCHEMA}"."app_user" ("id") on delete cascade,
        "email" varchar(254) not null,
        "ip" text null,
        "user_agent" text null,
        "method" varchar(32) not null,
        "outcome" varchar(32) not null,
        "at" timestamptz not null default now()
      )`,
      `create index "login_event_user_index" on "${SCHEMA}"."login_event" ("user_id", "at" desc)`,
      `create table "${SCHEMA}"."attempt_counter" (
        "scope" text not null,
        "subject" text not null,
        "window_start" timestamptz not null,
        "count" integer not null,
        primary key ("scope", "subject", "window_start")
      )`,
      `create table "${SCHEMA}"."external_identity" (
        "provider" varchar(64) not null,
        "subject" text not null,
        "user_id" uuid not null references "${SCHEMA}"."app_user" ("id") on delete cascade,
        "linked_at" timestamptz not null default now(),
        primary key ("provider", "subject")
      )`,
      `create table "${SCHEMA}"."external_login" (
        "state" char(64) primary key,
        "provider" varchar(64) not null,
        "code_verifier" text not null,
        "nonce" text not null,
        "locale" varchar(16) not null,
        "next" text null,
        "redirect_uri" text not null,
        "expires_at" timestamptz not null
      )`,
      `create table "${SCHEMA}"."api_key" (
        "id" uuid primary key default gen_random_uuid(),
        "organization_id" uuid not null references "${SCHEMA}"."organization" ("id"),
        "user_id" uuid not null references "${SCHEMA}"."app_user" ("id") on delete cascade,
        "label" varchar(200) not null,
        "prefix" char(12) not null,
        "key_hash" char(64) not null unique,
        "scopes" text[] not null,
        "expires_at" timestamptz not null,
        "revoked_at" timestamptz null,
        "last_used_at" timestamptz null,
        "created_at" timestamptz not null default now()
      )`,
      `create index "api_key_organization_index" on "${SCHEMA}"."api_key" ("organization_id", "created_at")`,
      `create table "${SCHEMA}"."api_key_usage" (
        "organization_id" uuid not null references "${SCHEMA}"."organization" ("id") on delete cascade,
        "day" date not null,
        "count" integer not null,
        primary key ("organization_id", "day")
      )`,
      ...[
        'account_token',
        'two_factor_challenge',
        'backup_code',
        'allowed_ip',
        'login_event',
        'attempt_counter',
        'external_identity',
        'external_login',
        'api_key',
        'api_key_usage',
      ].map(platform),
    ]) {
      this.addSql(statement);
    }
  }
}
