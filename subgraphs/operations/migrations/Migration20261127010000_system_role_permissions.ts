import { Migration } from '@mikro-orm/migrations';
import { SYSTEM_ROLE_DEFAULTS } from '../core/system-roles.js';
import { SCHEMA } from './tenant-tables.js';

/**
 * System roles drive access (docs/adr, roles are data): every organization that exists
 * gets the seed's system roles it lacks, and a role still as first written (version 1, no
 * permissions) gets the seed's permissions. Roles an Admin changed are left alone. Each
 * organization is written under its own tenant setting (row-level security).
 */
export function backfillSystemRoles(): string {
  const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const defaults = SYSTEM_ROLE_DEFAULTS.map(
    (role) => `(${literal(role.code)}, ${literal(`{${role.permissions.join(',')}}`)}::text[], ${role.scopeByObject})`,
  ).join(', ');
  return `do $$
    declare organization record;
    begin
      for organization in select "id" from "${SCHEMA}"."organization" loop
        perform set_config('app.organization_id', organization."id"::text, true);
        insert into "${SCHEMA}"."system_role" ("organization_id", "code", "name", "permissions", "scope_by_object")
          select organization."id", d.code, d.code, d.permissions, d.scoped from (values ${defaults}) as d (code, permissions, scoped)
          on conflict do nothing;
        update "${SCHEMA}"."system_role" r set "permissions" = d.permissions, "scope_by_object" = d.scoped
          from (values ${defaults}) as d (code, permissions, scoped)
          where r."organization_id" = organization."id" and r."code" = d.code and r."version" = 1 and r."permissions" = '{}';
      end loop;
      perform set_config('app.organization_id', '', true);
    end $$`;
}

/** Existing organizations get the seed's system roles and permissions (see above). */
export class Migration20261127010000_system_role_permissions extends Migration {
  static readonly migrationName = 'Migration20261127010000_system_role_permissions';

  override up(): void {
    this.addSql(backfillSystemRoles());
  }
}
