import { Migration } from '@mikro-orm/migrations';

const S = '"research"';

/**
 * A signed-in user's workspace is keyed by the issuer and subject of their access token
 * (a subject is unique only within its issuer): `owner_issuer` beside `owner_subject`,
 * unique together, replacing the subject's own uniqueness.
 */
export class Migration20261126000000_workspace_owners extends Migration {
  static readonly migrationName = 'Migration20261126000000_workspace_owners';

  override up(): void {
    for (const statement of [
      `alter table ${S}."workspace" add column "owner_issuer" text null`,
      `alter table ${S}."workspace" drop constraint "workspace_owner_subject_key"`,
      `create unique index "workspace_owner" on ${S}."workspace" ("owner_issuer", "owner_subject")`,
      `alter table ${S}."workspace" add constraint "workspace_user_owned"
         check (("kind" = 'user') = ("owner_issuer" is not null and "owner_subject" is not null))`,
    ]) {
      this.addSql(statement);
    }
  }
}
