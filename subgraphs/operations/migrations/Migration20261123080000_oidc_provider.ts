import { Migration } from '@mikro-orm/migrations';
import { APP_ROLE, auditedTable, SCHEMA } from './tenant-tables.js';

/**
 * The OpenID provider (docs/adr/0016): its clients (registered by the super-admin, audited,
 * secrets sealed), the engine's artifacts (sessions, interactions, grants, codes, refresh
 * tokens) in one table keyed by model and the SHA-256 of the id, and its keys (signing keys
 * and cookie keys, sealed) shared by every instance. Platform tables: no tenant policy.
 */
export class Migration20261123080000_oidc_provider extends Migration {
  static readonly migrationName = 'Migration20261123080000_oidc_provider';

  override up(): void {
    for (const statement of [
      `create table "${SCHEMA}"."oidc_client" (
        "id" uuid primary key default gen_random_uuid(),
        "client_id" varchar(64) not null unique,
        "name" varchar(200) not null,
        "public" boolean not null,
        "client_secret" text null,
        "redirect_uris" text[] not null,
        "post_logout_redirect_uris" text[] not null default '{}',
        "scopes" text[] not null,
        "created_by" uuid null references "${SCHEMA}"."app_user" ("id") on delete set null,
        "created_at" timestamptz not null default now(),
        check ("public" = ("client_secret" is null))
      )`,
      ...auditedTable('oidc_client', { entity: 'OidcClient', organizationColumn: 'organization_id', hidden: ['client_secret'] }),
      `create table "${SCHEMA}"."oidc_payload" (
        "model" varchar(64) not null,
        "id_hash" char(64) not null,
        "payload" jsonb not null,
        "client_id" varchar(64) null,
        "grant_id" text null,
        "uid" text null,
        "user_code" text null,
        "expires_at" timestamptz null,
        "consumed_at" timestamptz null,
        primary key ("model", "id_hash")
      )`,
      `create index "oidc_payload_grant_index" on "${SCHEMA}"."oidc_payload" ("grant_id") where "grant_id" is not null`,
      `create index "oidc_payload_client_index" on "${SCHEMA}"."oidc_payload" ("client_id") where "client_id" is not null`,
      `create index "oidc_payload_uid_index" on "${SCHEMA}"."oidc_payload" ("model", "uid") where "uid" is not null`,
      `create index "oidc_payload_user_code_index" on "${SCHEMA}"."oidc_payload" ("model", "user_code") where "user_code" is not null`,
      `create index "oidc_payload_expiry_index" on "${SCHEMA}"."oidc_payload" ("expires_at") where "expires_at" is not null`,
      `grant select, insert, update, delete on "${SCHEMA}"."oidc_payload" to ${APP_ROLE}`,
      `create table "${SCHEMA}"."oidc_key" (
        "kid" text primary key,
        "use" varchar(16) not null check ("use" in ('signing', 'cookie')),
        "sealed" text not null,
        "created_at" timestamptz not null default now()
      )`,
    ]) {
      this.addSql(statement);
    }
  }
}
