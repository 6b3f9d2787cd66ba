import { Migration } from '@mikro-orm/migrations';
import { SCHEMA } from './tenant-tables.js';

/**
 * Brigades go to the trash (seed 002, Trash names `brigades`): a `deleted_at` column, and
 * the new delete operation granted to every existing organization's system role that may
 * update brigades (new organizations get it from the contract's roles). Each organization
 * is written under its own tenant setting (row-level security).
 */
export class Migration20261127020000_brigade_trash extends Migration {
  static readonly migrationName = 'Migration20261127020000_brigade_trash';

  override up(): void {
    this.addSql(`alter table "${SCHEMA}"."brigade" add column "deleted_at" timestamptz null`);
    this.addSql(`do $$
    declare organization record;
    begin
      for organization in select "id" from "${SCHEMA}"."organization" loop
        perform set_config('app.organization_id', organization."id"::text, true);
        update "${SCHEMA}"."system_role"
          set "permissions" = array_append("permissions", 'hrDeleteBrigade'), "version" = "version" + 1
          where "organization_id" = organization."id" and 'hrUpdateBrigade' = any("permissions")
            and not ('hrDeleteBrigade' = any("permissions"));
      end loop;
      perform set_config('app.organization_id', '', true);
    end $$`);
  }
}
