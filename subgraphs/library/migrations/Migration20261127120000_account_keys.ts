import { Migration } from '@mikro-orm/migrations';

/**
 * Keys a signed-in Qantara account creates (`POST /v1/me/keys`) name the account: operations'
 * user id, which the library does not own (no foreign key across services), indexed for
 * `User.libraryKeys` and `GET /v1/me/keys`.
 */
export class Migration20261127120000_account_keys extends Migration {
  static readonly migrationName = 'Migration20261127120000_account_keys';

  override up(): void {
    this.addSql(`alter table "library"."api_key" add column "owner_user_id" uuid null`);
    this.addSql(`create index "api_key_owner_user_id_index" on "library"."api_key" ("owner_user_id") where "owner_user_id" is not null`);
  }
}
