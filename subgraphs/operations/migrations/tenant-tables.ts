/**
 * SQL that makes a table part of the tenancy and audit mechanisms, so a migration adding
 * a table cannot forget either: row-level security enabled and forced, a policy on
 * `organization_id` against the transaction's `app.organization_id` (no setting, no
 * rows), an optional restrictive object-scope policy against `app.object_ids`, the
 * audit trigger, and the grants of the application role (docs/adr/0008).
 */

import { APP_ROLE, SCHEMA } from '../core/database-names.js';

// Migrations take the schema and the role from here, beside the table helpers.
export { APP_ROLE, SCHEMA };

const ORGANIZATION = `nullif(current_setting('app.organization_id', true), '')::uuid`;
const OBJECTS = `coalesce(nullif(current_setting('app.object_ids', true), ''), '*')`;

export interface TenantTableOptions {
  /** PascalCase entity name the audit log and the trash use. */
  readonly entity: string;
  /** Column holding the production object the row belongs to, for object-scoped roles. */
  readonly objectColumn?: string;
  /** Columns never written to the audit log (secrets). */
  readonly hidden?: readonly string[];
  /** Working data rather than records (e.g. import previews): not audited. */
  readonly audited?: boolean;
}

export function tenantTable(table: string, options: TenantTableOptions): string[] {
  const qualified = `"${SCHEMA}"."${table}"`;
  const statements = [
    `alter table ${qualified} enable row level security`,
    `alter table ${qualified} force row level security`,
    `create policy "${table}_tenant" on ${qualified} using ("organization_id" = ${ORGANIZATION}) with check ("organization_id" = ${ORGANIZATION})`,
    ...(options.audited === false
      ? [`grant select, insert, update, delete on ${qualified} to ${APP_ROLE}`]
      : auditedTable(table, { ...options, organizationColumn: 'organization_id' })),
  ];
  if (options.objectColumn) {
    const column = `"${options.objectColumn}"`;
    statements.push(
      `create policy "${table}_object_scope" on ${qualified} as restrictive using (${OBJECTS} = '*' or ${column} is null or ${column} = any(string_to_array(nullif(${OBJECTS}, '*'), ',')::uuid[]))`,
    );
  }
  return statements;
}

/** A platform table (no tenant policy) whose changes are audited all the same. */
export function auditedTable(table: string, options: TenantTableOptions & { readonly organizationColumn: string }): string[] {
  const qualified = `"${SCHEMA}"."${table}"`;
  const hidden = `{${(options.hidden ?? []).join(',')}}`;
  return [
    `create trigger "${table}_audit" after insert or update or delete on ${qualified} for each row execute function "${SCHEMA}"."audit_row"('${options.entity}', '${options.organizationColumn}', '${hidden}')`,
    `grant select, insert, update, delete on ${qualified} to ${APP_ROLE}`,
  ];
}

/** The role, created once per cluster; concurrent creation by another database's migration is fine. */
export const CREATE_APP_ROLE = `do $$ begin
  begin
    create role ${APP_ROLE} nologin;
  exception when duplicate_object or unique_violation then null;
  end;
  -- The connecting user switches to the role in every transaction (a superuser may anyway).
  begin
    execute 'grant ${APP_ROLE} to ' || quote_ident(current_user);
  exception when others then null;
  end;
end $$`;

/**
 * One audit row per changed row, in the writing transaction: actor, request and
 * operation come from the transaction's settings; updates that change nothing but
 * `updated_at` are not recorded.
 */
export const AUDIT_FUNCTION = `create function "${SCHEMA}"."audit_row"() returns trigger language plpgsql security definer set search_path = pg_catalog as $fn$
declare
  before jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  after jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  hidden text[] := tg_argv[2]::text[];
  changes jsonb := '{}';
  field text;
  action text;
begin
  for field in select jsonb_object_keys(coalesce(after, before)) loop
    continue when field = 'updated_at' or field = any(hidden);
    if before is null or after is null or before -> field is distinct from after -> field then
      changes := changes || jsonb_build_object(field, jsonb_build_object('before', before -> field, 'after', after -> field));
    end if;
  end loop;
  if tg_op = 'UPDATE' and changes = '{}' then return null; end if;
  action := case
    when tg_op = 'INSERT' then 'create'
    when tg_op = 'DELETE' then 'delete'
    when before ->> 'deleted_at' is null and after ->> 'deleted_at' is not null then 'delete'
    else 'update' end;
  insert into "${SCHEMA}"."audit_log" ("organization_id", "actor_id", "entity_type", "entity_id", "action", "operation", "changes", "request_id")
  values (
    (coalesce(after, before) ->> tg_argv[1])::uuid,
    nullif(current_setting('app.actor_id', true), '')::uuid,
    tg_argv[0],
    coalesce(after, before) ->> 'id',
    action,
    nullif(current_setting('app.operation', true), ''),
    changes,
    nullif(current_setting('app.request_id', true), ''));
  return null;
end
$fn$`;
