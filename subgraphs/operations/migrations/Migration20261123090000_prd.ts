import { Migration } from '@mikro-orm/migrations';
import { SCHEMA, tenantTable } from './tenant-tables.js';

/**
 * Shift reports (PRD) and what their approval saga writes (docs/adr/0017-shift-reports.md): the
 * report and its seven kinds of entries (each carrying the report's production object for the
 * object-scope policy, and changeable only while the report is a draft — a trigger holds it), the
 * machine-hours ledger of assets, availability and utilization per asset and shift, production
 * statistics per object and day, and the timesheet.
 */

const T = (name: string) => `"${SCHEMA}"."${name}"`;
const ORGANIZATION = `"organization_id" uuid not null references ${T('organization')} ("id")`;
const STAMPS = `"created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now()`;
const CREATED = `"created_at" timestamptz not null default now()`;
const SHIFT_TYPE = `varchar(8) not null check ("shift_type" in ('day', 'night'))`;
const HOURS = `numeric(4,2) not null check (%s between 0 and 24)`;
const hours = (column: string) => `"${column}" ${HOURS.replace('%s', `"${column}"`)}`;

/** A child table of the report: its id, tenant, report and the report's object, then its own columns. */
const entryTable = (name: string, entity: string, columns: string, stamps = CREATED) => [
  `create table ${T(name)} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "shift_report_id" uuid not null references ${T('shift_report')} ("id"), "object_id" uuid not null,
    ${columns}, ${stamps}
  )`,
  `create index "${name}_report_index" on ${T(name)} ("shift_report_id", "created_at", "id")`,
  `create trigger "${name}_draft_only" before insert or update or delete on ${T(name)}
     for each row execute function ${T('shift_report_entry_guard')}()`,
  ...tenantTable(name, { entity, objectColumn: 'object_id' }),
];

const REPORTS = [
  `create table ${T('shift_report')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "production_object_id" uuid not null references ${T('production_object')} ("id"),
    "shift_date" date not null, "shift_type" ${SHIFT_TYPE},
    "status" varchar(16) not null default 'draft' check ("status" in ('draft', 'submitted', 'approved', 'rejected')),
    "created_by" uuid null, "submitted_by" uuid null, "submitted_at" timestamptz null,
    "approved_by" uuid null, "approved_at" timestamptz null, "approve_saga_id" uuid null references ${T('saga')} ("id"),
    "reject_saga_id" uuid null references ${T('saga')} ("id"),
    "rejected_by" uuid null, "rejected_at" timestamptz null, "reject_reason" varchar(500) null,
    ${STAMPS}
  )`,
  // One report per shift; a rejected one no longer counts, so the shift can be reported again.
  `create unique index "shift_report_one_per_shift" on ${T('shift_report')} ("organization_id", "production_object_id", "shift_date", "shift_type")
     where "status" <> 'rejected'`,
  `create index "shift_report_list_index" on ${T('shift_report')} ("organization_id", "created_at" desc, "id" desc)`,
  ...tenantTable('shift_report', { entity: 'ShiftReport', objectColumn: 'production_object_id' }),
  // Entries are accepted only in draft and immutable after: whatever writes them, the database refuses otherwise.
  `create function ${T('shift_report_entry_guard')}() returns trigger language plpgsql as $fn$
  begin
    if not exists (select 1 from "${SCHEMA}"."shift_report"
                   where "id" = coalesce(new."shift_report_id", old."shift_report_id") and "status" = 'draft') then
      raise exception 'shift report entries change only while the report is a draft' using errcode = 'check_violation';
    end if;
    return coalesce(new, old);
  end
  $fn$`,
  ...entryTable(
    'shift_personnel_entry',
    'ShiftPersonnelEntry',
    `"personnel_id" uuid not null references ${T('personnel')} ("id"), "position_id" uuid not null references ${T('position')} ("id"),
     ${hours('hours_worked')}, ${hours('downtime_hours')}, unique ("shift_report_id", "personnel_id")`,
    STAMPS,
  ),
  ...entryTable(
    'shift_asset_usage',
    'ShiftAssetUsage',
    `"asset_id" uuid not null references ${T('asset')} ("id"), "operator_personnel_id" uuid null references ${T('personnel')} ("id"),
     ${hours('hours_worked')}, "meter_reading_start" numeric(14,2) not null check ("meter_reading_start" >= 0),
     "meter_reading_end" numeric(14,2) not null, check ("meter_reading_end" >= "meter_reading_start"),
     unique ("shift_report_id", "asset_id")`,
    STAMPS,
  ),
  `create index "shift_asset_usage_operator_index" on ${T('shift_asset_usage')} ("operator_personnel_id") where "operator_personnel_id" is not null`,
  ...entryTable(
    'shift_drilling_entry',
    'ShiftDrillingEntry',
    `"asset_usage_id" uuid not null references ${T('shift_asset_usage')} ("id"), "holes_drilled" integer not null check ("holes_drilled" >= 1),
     "depth_meters" numeric(12,2) not null check ("depth_meters" > 0),
     "drill_bit_wear_percent" numeric(5,2) null check ("drill_bit_wear_percent" between 0 and 100)`,
  ),
  ...entryTable(
    'shift_blasting_entry',
    'ShiftBlastingEntry',
    `"blocks_blasted" integer not null check ("blocks_blasted" >= 0), "explosive_type" varchar(80) not null,
     "explosive_kg" numeric(15,3) not null check ("explosive_kg" >= 0), "permit_id" uuid null`,
  ),
  ...entryTable(
    'shift_fuel_entry',
    'ShiftFuelEntry',
    `"asset_usage_id" uuid not null references ${T('shift_asset_usage')} ("id"), "tank_id" uuid not null references ${T('fuel_tank')} ("id"),
     "fuel_type" varchar(16) not null check ("fuel_type" in ('diesel', 'gasoline', 'lubricant')),
     "liters_issued" numeric(12,3) not null check ("liters_issued" >= 0),
     "liters_consumed" numeric(12,3) not null check ("liters_consumed" >= 0 and "liters_consumed" <= "liters_issued")`,
  ),
  ...entryTable(
    'shift_downtime_entry',
    'ShiftDowntimeEntry',
    `"asset_usage_id" uuid null references ${T('shift_asset_usage')} ("id"),
     "reason_code" varchar(16) not null check ("reason_code" in ('breakdown', 'maintenance', 'no_fuel', 'weather', 'other')),
     "started_at" timestamptz not null, "ended_at" timestamptz not null, "description" varchar(2000) null,
     check ("ended_at" > "started_at")`,
  ),
  ...entryTable(
    'shift_material_usage',
    'ShiftMaterialUsage',
    `"asset_usage_id" uuid null references ${T('shift_asset_usage')} ("id"), "tmc_item_id" uuid not null references ${T('tmc_item')} ("id"),
     "warehouse_id" uuid not null references ${T('warehouse')} ("id"),
     "quantity" numeric(20,3) not null check ("quantity" > 0), "unit" varchar(20) not null`,
  ),
];

const EFFECTS = [
  // Machine hours: a ledger of runs and their reversals; the asset keeps the sum and the highest meter.
  `alter table ${T('asset')} add column "machine_hours" numeric(14,2) not null default 0 check ("machine_hours" >= 0),
     add column "meter_reading" numeric(14,2) null`,
  `create table ${T('asset_hours_entry')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "asset_id" uuid not null references ${T('asset')} ("id"), "object_id" uuid not null,
    "kind" varchar(16) not null check ("kind" in ('run', 'reversal')),
    "hours" numeric(6,2) not null check ("hours" >= 0), "meter_start" numeric(14,2) null, "meter_end" numeric(14,2) null,
    "source_type" varchar(64) not null, "source_id" uuid not null, "saga_id" uuid null, "actor_id" uuid null,
    "reversal_of_id" uuid null unique references ${T('asset_hours_entry')} ("id"),
    "reversed_by_id" uuid null references ${T('asset_hours_entry')} ("id"), ${STAMPS},
    check (("kind" = 'reversal') = ("reversal_of_id" is not null))
  )`,
  `create index "asset_hours_entry_source_index" on ${T('asset_hours_entry')} ("source_id")`,
  `create index "asset_hours_entry_meter_index" on ${T('asset_hours_entry')} ("asset_id", "meter_end") where "kind" = 'run' and "reversed_by_id" is null`,
  ...tenantTable('asset_hours_entry', { entity: 'AssetHoursEntry', objectColumn: 'object_id' }),
  `create table ${T('asset_shift_coefficient')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "asset_id" uuid not null references ${T('asset')} ("id"), "production_object_id" uuid not null,
    "asset_usage_id" uuid not null unique references ${T('shift_asset_usage')} ("id"),
    "shift_report_id" uuid not null references ${T('shift_report')} ("id"), "shift_date" date not null, "shift_type" ${SHIFT_TYPE},
    "scheduled_hours" numeric(4,2) not null, "hours_worked" numeric(4,2) not null, "downtime_hours" numeric(6,2) not null,
    "availability" numeric(6,4) not null check ("availability" between 0 and 1),
    "utilization" numeric(6,4) not null check ("utilization" between 0 and 1), "saga_id" uuid null, ${CREATED}
  )`,
  `create index "asset_shift_coefficient_list_index" on ${T('asset_shift_coefficient')} ("organization_id", "shift_date" desc, "id" desc)`,
  `create index "asset_shift_coefficient_report_index" on ${T('asset_shift_coefficient')} ("shift_report_id")`,
  ...tenantTable('asset_shift_coefficient', { entity: 'AssetShiftCoefficient', objectColumn: 'production_object_id' }),
  ...statistics('production_statistic', 'ProductionStatistic', `"reports" integer not null default 0 check ("reports" >= 0)`, STAMPS),
  `create unique index "production_statistic_day_unique" on ${T('production_statistic')} ("organization_id", "production_object_id", "stat_date")`,
  `create index "production_statistic_list_index" on ${T('production_statistic')} ("organization_id", "stat_date" desc, "id" desc)`,
  // What each approved report added to its day: taken back exactly when the report is reversed.
  ...statistics(
    'production_statistic_entry',
    'ProductionStatisticEntry',
    `"shift_report_id" uuid not null unique references ${T('shift_report')} ("id"), "saga_id" uuid null`,
    CREATED,
  ),
  `create table ${T('timesheet_entry')} (
    "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
    "personnel_id" uuid not null references ${T('personnel')} ("id"), "position_id" uuid not null, "object_id" uuid not null,
    "work_date" date not null, "shift_type" ${SHIFT_TYPE}, ${hours('hours_worked')}, ${hours('downtime_hours')},
    "source_id" uuid not null, "source_entry_id" uuid not null unique, "saga_id" uuid null, ${CREATED}
  )`,
  `create index "timesheet_entry_list_index" on ${T('timesheet_entry')} ("organization_id", "work_date" desc, "id" desc)`,
  `create index "timesheet_entry_source_index" on ${T('timesheet_entry')} ("source_id")`,
  ...tenantTable('timesheet_entry', { entity: 'TimesheetEntry', objectColumn: 'object_id' }),
  // The fuel step finds the issues of a report's entries by reference.
  `create index "fuel_issue_reference_index" on ${T('fuel_issue')} ("reference_id") where "reference_id" is not null`,
];

/** A table of production figures per object and day (the totals, or one report's share of them). */
function statistics(name: string, entity: string, columns: string, stamps: string): string[] {
  const figure = (column: string, type = 'numeric') => `"${column}" ${type} not null default 0`;
  return [
    `create table ${T(name)} (
      "id" uuid primary key default gen_random_uuid(), ${ORGANIZATION},
      "production_object_id" uuid not null references ${T('production_object')} ("id"), "stat_date" date not null,
      ${columns},
      ${figure('holes_drilled')}, ${figure('depth_meters', 'numeric(20,2)')}, ${figure('blocks_blasted')},
      ${figure('explosive_kg', 'numeric(20,3)')}, ${figure('fuel_issued_liters', 'numeric(20,3)')},
      ${figure('fuel_consumed_liters', 'numeric(20,3)')}, ${figure('machine_hours', 'numeric(20,2)')},
      ${figure('downtime_hours', 'numeric(20,2)')}, ${figure('personnel_hours', 'numeric(20,2)')},
      ${figure('personnel_downtime_hours', 'numeric(20,2)')}, ${stamps}
    )`,
    ...tenantTable(name, { entity, objectColumn: 'production_object_id' }),
  ];
}

export class Migration20261123090000_prd extends Migration {
  static readonly migrationName = 'Migration20261123090000_prd';

  override up(): void {
    for (const statement of [...REPORTS, ...EFFECTS]) this.addSql(statement);
  }
}
