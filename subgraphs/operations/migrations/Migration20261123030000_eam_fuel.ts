import { Migration } from '@mikro-orm/migrations';
import { SCHEMA, tenantTable } from './tenant-tables.js';

const T = (table: string) => `"${SCHEMA}"."${table}"`;
const OBJECTS = `coalesce(nullif(current_setting('app.object_ids', true), ''), '*')`;
const ORGANIZATION = `"organization_id" uuid not null references ${T('organization')} ("id")`;
const STAMPS = `"created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now()`;

const EAM = [
  `create table ${T('asset_class')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "code" varchar(64) not null, "name" varchar(200) not null, "description" varchar(1000) not null default '',
    "active" boolean not null default true, ${STAMPS}, "deleted_at" timestamptz null
  )`,
  `create unique index "asset_class_key_unique" on ${T('asset_class')} ("organization_id", "code") where "deleted_at" is null`,
  ...tenantTable('asset_class', { entity: 'AssetClass' }),
  `create table ${T('asset')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "inventory_number" varchar(20) not null, "name" varchar(200) not null,
    "asset_class_id" uuid not null references ${T('asset_class')} ("id"),
    "current_object_id" uuid not null references ${T('production_object')} ("id"),
    "responsible_mechanic_id" uuid null,
    "status" varchar(16) not null default 'operational' check ("status" in ('operational', 'maintenance', 'conserved', 'decommissioned')),
    "maintenance_id" uuid null,
    "commissioned_at" timestamptz not null, "passport" jsonb not null,
    "decommissioned_at" timestamptz null, "decommissioned_by" uuid null, "decommission_co_approved_by" uuid null,
    "decommission_reason" varchar(1000) null, ${STAMPS},
    check (("status" = 'maintenance') = ("maintenance_id" is not null))
  )`,
  `create unique index "asset_inventory_number_unique" on ${T('asset')} ("organization_id", "inventory_number")`,
  `create index "asset_list_index" on ${T('asset')} ("organization_id", "created_at" desc, "id" desc)`,
  ...tenantTable('asset', { entity: 'Asset', objectColumn: 'current_object_id' }),
  `create table ${T('maintenance_record')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "asset_id" uuid not null references ${T('asset')} ("id"), "object_id" uuid not null,
    "kind" varchar(16) not null default 'maintenance' check ("kind" in ('maintenance', 'repair')),
    "status" varchar(16) not null default 'scheduled' check ("status" in ('scheduled', 'inProgress', 'completed', 'cancelled')),
    "scheduled_at" timestamptz not null, "started_at" timestamptz null, "completed_at" timestamptz null,
    "cancelled_at" timestamptz null, "cancelled_by" uuid null, "cancellation_reason" varchar(500) null,
    "reason" varchar(500) null, "notes" varchar(2000) null, "performed_by" uuid null, "created_by" uuid null, ${STAMPS}
  )`,
  // At most one maintenance in progress per asset: the one the asset points to.
  `create unique index "maintenance_in_progress_unique" on ${T('maintenance_record')} ("asset_id") where "status" = 'inProgress'`,
  `create index "maintenance_list_index" on ${T('maintenance_record')} ("organization_id", "scheduled_at" desc, "id" desc)`,
  ...tenantTable('maintenance_record', { entity: 'MaintenanceRecord', objectColumn: 'object_id' }),
  `alter table ${T('asset')} add constraint "asset_maintenance_fk" foreign key ("maintenance_id") references ${T('maintenance_record')} ("id")`,
  `create table ${T('asset_movement')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "asset_id" uuid not null references ${T('asset')} ("id"),
    "op" varchar(24) not null check ("op" in ('transfer_audit', 'conservation', 'from_conservation', 'to_repair', 'from_repair',
      'to_maintenance', 'from_maintenance', 'decommission')),
    "status" varchar(16) not null check ("status" in ('draft', 'applied', 'failed', 'cancelled')),
    "from_object_id" uuid null, "to_object_id" uuid null, "actor_id" uuid null,
    "occurred_at" timestamptz not null default clock_timestamp(), "reason" varchar(2000) null,
    "maintenance_id" uuid null references ${T('maintenance_record')} ("id"), ${STAMPS}
  )`,
  `create index "asset_movement_list_index" on ${T('asset_movement')} ("organization_id", "occurred_at" desc, "id" desc)`,
  `create index "asset_movement_asset_index" on ${T('asset_movement')} ("asset_id", "occurred_at" desc)`,
  ...tenantTable('asset_movement', { entity: 'AssetMovement' }),
  // A movement touches two objects: object-scoped roles see it when either is theirs.
  `create policy "asset_movement_object_scope" on ${T('asset_movement')} as restrictive using (${OBJECTS} = '*'
    or "from_object_id" = any(string_to_array(nullif(${OBJECTS}, '*'), ',')::uuid[])
    or "to_object_id" = any(string_to_array(nullif(${OBJECTS}, '*'), ',')::uuid[]))`,
];

const FUEL = [
  `create table ${T('fuel_tank')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "object_id" uuid not null references ${T('production_object')} ("id"), "code" varchar(64) not null,
    "capacity_liters" numeric not null check ("capacity_liters" > 0),
    "min_level_liters" numeric not null check ("min_level_liters" >= 0 and "min_level_liters" <= "capacity_liters"),
    "current_balance_liters" numeric not null default 0
      check ("current_balance_liters" >= 0 and "current_balance_liters" <= "capacity_liters"),
    "active" boolean not null default true,
    "status_derived" varchar(16) generated always as (case
      when "current_balance_liters" <= "min_level_liters" then 'critical'
      when "current_balance_liters" <= "min_level_liters" * 1.2 then 'attention'
      else 'normal' end) stored,
    ${STAMPS}
  )`,
  `create unique index "fuel_tank_code_unique" on ${T('fuel_tank')} ("organization_id", "code")`,
  ...tenantTable('fuel_tank', { entity: 'FuelTank', objectColumn: 'object_id' }),
  `create table ${T('fuel_supply_request')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "tank_id" uuid not null references ${T('fuel_tank')} ("id"), "object_id" uuid not null,
    "requested_volume_liters" numeric not null check ("requested_volume_liters" > 0),
    "desired_delivery_date" date not null, "justification" varchar(2000) not null,
    "status" varchar(16) not null default 'draft' check ("status" in ('draft', 'submitted', 'approved', 'rejected', 'fulfilled')),
    "initiator_id" uuid not null, "submitted_at" timestamptz null,
    "approved_by_id" uuid null, "approved_at" timestamptz null, "approval_comment" varchar(1000) null,
    "rejected_by_id" uuid null, "rejected_at" timestamptz null, "reject_reason" varchar(1000) null,
    "fulfilled_supply_id" uuid null unique, "fulfilled_quantity_liters" numeric null, "fulfilled_at" timestamptz null,
    "last_return_comment" varchar(2000) null, ${STAMPS}
  )`,
  `create index "fuel_supply_request_list_index" on ${T('fuel_supply_request')} ("organization_id", "created_at" desc, "id" desc)`,
  ...tenantTable('fuel_supply_request', { entity: 'FuelSupplyRequest', objectColumn: 'object_id' }),
  ...ledger(
    'fuel_supply',
    'FuelSupply',
    ['receipt', 'reversal'],
    `"supplier_id" uuid null, "quantity_liters" numeric not null check ("quantity_liters" > 0),
    "supply_request_id" uuid null references ${T('fuel_supply_request')} ("id"), "comment" varchar(2000) null`,
  ),
  `alter table ${T('fuel_supply_request')} add constraint "fuel_supply_request_fulfilled_fk"
    foreign key ("fulfilled_supply_id") references ${T('fuel_supply')} ("id")`,
  ...ledger(
    'fuel_issue',
    'FuelIssue',
    ['issue', 'reversal'],
    `"liters" numeric not null check ("liters" > 0),
    "reference_type" varchar(64) null, "reference_id" uuid null`,
  ),
];

/** An append-only ledger of one tank's entries: an entry and, once, its reversal (a counter-entry). */
function ledger(table: string, entity: string, kinds: readonly string[], columns: string): string[] {
  return [
    `create table ${T(table)} (
      "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
      "tank_id" uuid not null references ${T('fuel_tank')} ("id"), "object_id" uuid not null,
      "kind" varchar(16) not null check ("kind" in (${kinds.map((kind) => `'${kind}'`).join(', ')})),
      ${columns},
      "occurred_at" timestamptz not null default now(), "saga_id" uuid null, "actor_id" uuid null,
      "reversal_of_id" uuid null unique references ${T(table)} ("id"), "reversed_by_id" uuid null references ${T(table)} ("id"),
      "reason" varchar(500) null, "balance_after_liters" numeric not null, ${STAMPS},
      check (("kind" = 'reversal') = ("reversal_of_id" is not null))
    )`,
    `create index "${table}_list_index" on ${T(table)} ("organization_id", "occurred_at" desc, "id" desc)`,
    `create index "${table}_tank_index" on ${T(table)} ("tank_id", "occurred_at" desc)`,
    ...tenantTable(table, { entity, objectColumn: 'object_id' }),
  ];
}

/**
 * EAM (asset classes, assets, maintenance, the movements journal) and fuel (tanks with a
 * derived status, supply requests, and the supply and issue ledgers); docs/adr/0011.
 */
export class Migration20261123030000_eam_fuel extends Migration {
  static readonly migrationName = 'Migration20261123030000_eam_fuel';

  override up(): void {
    for (const statement of [...EAM, ...FUEL]) this.addSql(statement);
  }
}
