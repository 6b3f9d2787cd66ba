import { Migration } from '@mikro-orm/migrations';
import { SCHEMA, tenantTable } from './tenant-tables.js';

const T = (table: string) => `"${SCHEMA}"."${table}"`;
const SEED_OPS = `('transfer_audit', 'conservation', 'from_conservation', 'to_repair', 'from_repair')`;

/**
 * The movements journal takes only the five `op` values of seed 002 (docs/adr/0038).
 * Maintenance is recorded by its own record (`maintenance_record`, with who and when at each
 * step) and its events; a decommission by the asset's own columns, its event and — for the
 * decommission saga's draft, applied or failed outcome — `asset_decommission`, which takes the
 * journal's existing `decommission` entries. The journal's maintenance entries are dropped: each
 * repeated what its maintenance record holds. Each organization is written under its own tenant
 * setting (row-level security).
 */
export class Migration20261127040000_journal_ops extends Migration {
  static readonly migrationName = 'Migration20261127040000_journal_ops';

  override up(): void {
    for (const statement of [
      `create table ${T('asset_decommission')} (
        "id" uuid primary key default gen_random_uuid(),
        "organization_id" uuid not null references ${T('organization')} ("id"),
        "asset_id" uuid not null references ${T('asset')} ("id"),
        "status" varchar(16) not null check ("status" in ('draft', 'applied', 'failed')),
        "object_id" uuid null, "actor_id" uuid null, "reason" varchar(2000) null,
        "saga_id" uuid null references ${T('saga')} ("id"),
        "occurred_at" timestamptz not null default clock_timestamp(),
        "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now()
      )`,
      `create index "asset_decommission_asset_index" on ${T('asset_decommission')} ("asset_id", "occurred_at" desc)`,
      `create index "asset_decommission_saga_index" on ${T('asset_decommission')} ("saga_id") where "saga_id" is not null`,
      ...tenantTable('asset_decommission', { entity: 'AssetDecommission', objectColumn: 'object_id' }),
      `do $$
      declare organization record;
      begin
        for organization in select "id" from ${T('organization')} loop
          perform set_config('app.organization_id', organization."id"::text, true);
          insert into ${T('asset_decommission')}
            ("id", "organization_id", "asset_id", "status", "object_id", "actor_id", "reason", "saga_id", "occurred_at", "created_at", "updated_at")
          select "id", "organization_id", "asset_id", case "status" when 'cancelled' then 'failed' else "status" end,
            "from_object_id", "actor_id", "reason", "saga_id", "occurred_at", "created_at", "updated_at"
          from ${T('asset_movement')} where "organization_id" = organization."id" and "op" = 'decommission';
          delete from ${T('asset_movement')} where "organization_id" = organization."id" and "op" not in ${SEED_OPS};
        end loop;
        perform set_config('app.organization_id', '', true);
      end $$`,
      `alter table ${T('asset_movement')} drop constraint "asset_movement_op_check"`,
      `alter table ${T('asset_movement')} add constraint "asset_movement_op_check" check ("op" in ${SEED_OPS})`,
    ]) {
      this.addSql(statement);
    }
  }
}
