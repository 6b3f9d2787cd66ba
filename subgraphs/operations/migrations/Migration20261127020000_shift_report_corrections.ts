import { Migration } from '@mikro-orm/migrations';
import { SCHEMA } from './tenant-tables.js';

/**
 * Draft shift reports can be corrected (docs/adr, shift-report draft corrections):
 * - an employee may have several personnel entries in a report and a machine several usages (one
 *   per stint), so the two uniqueness rules go; the service bounds the sums instead (an employee's
 *   hours at most 24, a machine's at most the shift's hours), and plain indexes serve those sums;
 * - availability and utilization are one row per machine and shift, summed over its usages;
 * - every role that may add an entry may correct and delete one, and every role that may draft a
 *   report may delete a draft: existing organizations' system roles get the new operations by the
 *   operations they already have (new organizations get them from the contracts).
 */

const T = (name: string) => `"${SCHEMA}"."${name}"`;

/** Operations granted with the operation a role already holds (names frozen here). */
const GRANTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['prdCreateShiftReport', ['prdDeleteShiftReport']],
  [
    'prdAddShiftPersonnel',
    ['Personnel', 'AssetUsage', 'Drilling', 'Blasting', 'Fuel', 'Downtime', 'Material'].flatMap((stem) => [
      `prdUpdateShift${stem}`,
      `prdDeleteShift${stem}`,
    ]),
  ],
];

function grant(): string {
  const updates = GRANTS.map(
    ([held, added]) => `
        update ${T('system_role')} set "permissions" = "permissions" || (
            select coalesce(array_agg(p), '{}') from unnest('{${added.join(',')}}'::text[]) p where not p = any("permissions")),
          "version" = "version" + 1
          where "organization_id" = organization."id" and '${held}' = any("permissions")
            and not '{${added.join(',')}}'::text[] <@ "permissions";`,
  ).join('');
  return `do $$
    declare organization record;
    begin
      for organization in select "id" from ${T('organization')} loop
        perform set_config('app.organization_id', organization."id"::text, true);${updates}
      end loop;
      perform set_config('app.organization_id', '', true);
    end $$`;
}

export class Migration20261127020000_shift_report_corrections extends Migration {
  static readonly migrationName = 'Migration20261127020000_shift_report_corrections';

  override up(): void {
    this.addSql(`alter table ${T('shift_personnel_entry')} drop constraint "shift_personnel_entry_shift_report_id_personnel_id_key"`);
    this.addSql(`alter table ${T('shift_asset_usage')} drop constraint "shift_asset_usage_shift_report_id_asset_id_key"`);
    this.addSql(`create index "shift_personnel_entry_employee_index" on ${T('shift_personnel_entry')} ("shift_report_id", "personnel_id")`);
    this.addSql(`create index "shift_asset_usage_asset_index" on ${T('shift_asset_usage')} ("shift_report_id", "asset_id")`);
    this.addSql(
      `create unique index "asset_shift_coefficient_report_asset_unique" on ${T('asset_shift_coefficient')} ("shift_report_id", "asset_id")`,
    );
    this.addSql(grant());
  }
}
