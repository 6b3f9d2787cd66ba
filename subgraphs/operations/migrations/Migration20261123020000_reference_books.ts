import { Migration } from '@mikro-orm/migrations';
import { SCHEMA, tenantTable } from './tenant-tables.js';

/** Common columns of a reference book; the business key is unique among rows not in the trash. */
function book(table: string, columns: string, key: string[]): string[] {
  return [
    `create table "${SCHEMA}"."${table}" (
      "id" uuid primary key default gen_random_uuid(),
      "organization_id" uuid not null references "${SCHEMA}"."organization" ("id"),
      ${columns},
      "active" boolean not null default true,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null
    )`,
    `create unique index "${table}_key_unique" on "${SCHEMA}"."${table}" ("organization_id", ${key.map((column) => `"${column}"`).join(', ')}) where "deleted_at" is null`,
  ];
}

/** The seven reference books of the seed, each a tenant table with its business key. */
export class Migration20261123020000_reference_books extends Migration {
  static readonly migrationName = 'Migration20261123020000_reference_books';

  override up(): void {
    for (const statement of [
      ...book('production_object', `"code" varchar(64) not null, "name" varchar(200) not null, "region" varchar(200) not null default ''`, [
        'code',
      ]),
      ...tenantTable('production_object', { entity: 'ProductionObject', objectColumn: 'id' }),
      ...book('tmc_category', `"code" varchar(64) not null, "name" varchar(200) not null, "parent_id" uuid null`, ['code']),
      ...tenantTable('tmc_category', { entity: 'TmcCategory' }),
      ...book(
        'downtime_category',
        `"code" varchar(64) not null, "name" varchar(200) not null, "group" varchar(100) not null, "parent_id" uuid null`,
        ['code'],
      ),
      ...tenantTable('downtime_category', { entity: 'DowntimeCategory' }),
      ...book(
        'hse_incident_classifier',
        `"code" varchar(64) not null, "group" varchar(100) not null, "severity" varchar(32) not null, "name" varchar(200) not null`,
        ['code'],
      ),
      ...tenantTable('hse_incident_classifier', { entity: 'HseIncidentClassifier' }),
      ...book('position', `"code" varchar(64) not null, "name" varchar(200) not null`, ['code']),
      ...tenantTable('position', { entity: 'Position' }),
      ...book(
        'system_role',
        `"code" varchar(32) not null, "name" varchar(200) not null, "description" varchar(1000) not null default '',
         "permissions" text[] not null default '{}', "scope_by_object" boolean not null default false, "version" integer not null default 1`,
        ['code'],
      ),
      ...tenantTable('system_role', { entity: 'SystemRole' }),
      ...book(
        'maintenance_norm',
        `"asset_class_code" varchar(64) not null, "norm" varchar(100) not null, "value" numeric not null, "unit" varchar(32) not null,
         "valid_from" timestamptz not null, "valid_to" timestamptz null`,
        ['asset_class_code', 'norm', 'valid_from'],
      ),
      ...tenantTable('maintenance_norm', { entity: 'MaintenanceNorm' }),
    ]) {
      this.addSql(statement);
    }
  }
}
