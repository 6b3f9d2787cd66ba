import { Migration } from '@mikro-orm/migrations';
import { SCHEMA, tenantTable } from './tenant-tables.js';

const table = (name: string) => `"${SCHEMA}"."${name}"`;
const TENANT = `"organization_id" uuid not null references ${table('organization')} ("id")`;
const TIMES = `"created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now()`;

/**
 * Personnel, their transfers between objects, brigades and memberships (at most one
 * active membership per employee, held by a partial unique index), and documents in
 * object storage (docs/adr/0013-personnel-and-documents.md).
 */
export class Migration20261123050000_hr_documents extends Migration {
  static readonly migrationName = 'Migration20261123050000_hr_documents';

  override up(): void {
    for (const statement of [
      `create table ${table('personnel')} (
        "id" uuid primary key default gen_random_uuid(),
        ${TENANT},
        "full_name" varchar(200) not null,
        "tab_number" varchar(50) not null,
        "birth_date" date null,
        "position_id" uuid not null references ${table('position')} ("id"),
        "status" varchar(16) not null default 'active' check ("status" in ('active', 'onWatch', 'onVacation', 'terminated')),
        "object_id" uuid null references ${table('production_object')} ("id"),
        "phone" varchar(50) null,
        "email" varchar(254) null,
        "hired_at" date not null,
        "terminated_at" date null,
        "termination_reason" varchar(500) null,
        "arrival_date" date null,
        "expected_return_date" date null,
        ${TIMES},
        check (("status" = 'terminated') = ("terminated_at" is not null))
      )`,
      `create unique index "personnel_tab_number_unique" on ${table('personnel')} ("organization_id", "tab_number")`,
      `create index "personnel_name_index" on ${table('personnel')} ("organization_id", "full_name", "id")`,
      `create index "personnel_object_index" on ${table('personnel')} ("organization_id", "object_id")`,
      ...tenantTable('personnel', { entity: 'Personnel', objectColumn: 'object_id' }),
      `create table ${table('personnel_transfer')} (
        "id" uuid primary key default gen_random_uuid(),
        ${TENANT},
        "personnel_id" uuid not null references ${table('personnel')} ("id"),
        "from_object_id" uuid null,
        "to_object_id" uuid not null references ${table('production_object')} ("id"),
        "reason" varchar(1000) not null,
        "effective_from" date not null,
        ${TIMES}
      )`,
      `create index "personnel_transfer_personnel_index" on ${table('personnel_transfer')} ("personnel_id", "effective_from")`,
      ...tenantTable('personnel_transfer', { entity: 'PersonnelTransfer' }),
      `create table ${table('brigade')} (
        "id" uuid primary key default gen_random_uuid(),
        ${TENANT},
        "name" varchar(200) not null,
        "object_id" uuid not null references ${table('production_object')} ("id"),
        "work_type" varchar(16) not null check ("work_type" in ('drilling', 'blasting', 'auxiliary')),
        "brigadier_id" uuid null references ${table('personnel')} ("id"),
        "status" varchar(16) not null default 'active' check ("status" in ('active', 'inactive')),
        "is_active" boolean generated always as ("status" = 'active') stored,
        "disbanded_at" timestamptz null,
        ${TIMES}
      )`,
      `create index "brigade_name_index" on ${table('brigade')} ("organization_id", "name", "id")`,
      `create index "brigade_brigadier_index" on ${table('brigade')} ("brigadier_id") where "status" = 'active'`,
      ...tenantTable('brigade', { entity: 'Brigade', objectColumn: 'object_id' }),
      `create table ${table('brigade_membership')} (
        "id" uuid primary key default gen_random_uuid(),
        ${TENANT},
        "brigade_id" uuid not null references ${table('brigade')} ("id"),
        "personnel_id" uuid not null references ${table('personnel')} ("id"),
        "from_date" date not null,
        "to_date" date null,
        ${TIMES},
        check ("to_date" is null or "to_date" >= "from_date")
      )`,
      `create unique index "brigade_membership_one_active" on ${table('brigade_membership')} ("personnel_id") where "to_date" is null`,
      `create index "brigade_membership_roster_index" on ${table('brigade_membership')} ("brigade_id", "from_date") where "to_date" is null`,
      ...tenantTable('brigade_membership', { entity: 'BrigadeMembership' }),
      `create table ${table('document')} (
        "id" uuid primary key default gen_random_uuid(),
        ${TENANT},
        "entity_type" varchar(100) not null,
        "entity_id" uuid not null,
        "filename" varchar(255) not null,
        "mime_type" varchar(200) null,
        "bucket" varchar(32) not null check ("bucket" in ('documents', 'hse-photos', 'reports', 'asset-passports')),
        "status" varchar(16) not null default 'pending' check ("status" in ('pending', 'ready')),
        "size" bigint null,
        "sha256" char(64) null,
        "created_by" uuid null,
        "confirmed_by" uuid null,
        "confirmed_at" timestamptz null,
        ${TIMES},
        check ("status" = 'pending' or ("size" is not null and "sha256" is not null))
      )`,
      `create index "document_entity_index" on ${table('document')} ("organization_id", "entity_type", "entity_id")`,
      ...tenantTable('document', { entity: 'Document' }),
    ]) {
      this.addSql(statement);
    }
  }
}
