import { Migration } from '@mikro-orm/migrations';

/**
 * The windows of the open routes (no key): one row per client address and UTC day, with the
 * minute window in the same row, as `api_key_window` keeps a key's. Old days are not read again.
 */
export class Migration20261127090000_address_windows extends Migration {
  static readonly migrationName = 'Migration20261127090000_address_windows';

  override up(): void {
    this.addSql(`create table "library"."address_window" (
      "address" text not null,
      "day" date not null,
      "minute" bigint not null,
      "minute_count" integer not null,
      "day_count" integer not null,
      primary key ("address", "day")
    )`);
  }
}
