import { Migration } from '@mikro-orm/migrations';
import { SCHEMA } from './tenant-tables.js';

/** API access on or off per user (seed 001 part C, later phase): off refuses the user's API keys at once. */
export class Migration20261127020000_api_access extends Migration {
  static readonly migrationName = 'Migration20261127020000_api_access';

  override up(): void {
    this.addSql(`alter table "${SCHEMA}"."app_user" add column "api_access" boolean not null default true`);
  }
}
