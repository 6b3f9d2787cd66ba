import { Migration } from '@mikro-orm/migrations';

/**
 * A signed-in person's sign-out: access tokens issued to them up to that second are refused
 * from then on (the workspace guard compares each token's `iat` with it on every call).
 */
export class Migration20261127000000_workspace_sign_out extends Migration {
  static readonly migrationName = 'Migration20261127000000_workspace_sign_out';

  override up(): void {
    this.addSql(`alter table "research"."workspace" add column "signed_out_at" timestamptz null`);
  }
}
