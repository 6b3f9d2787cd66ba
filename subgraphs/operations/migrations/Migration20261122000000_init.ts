import { Migration } from '@mikro-orm/migrations';

/** The operations service's own schema; tables arrive with the modules that own them. */
export class Migration20261122000000_init extends Migration {
  static readonly migrationName = 'Migration20261122000000_init';

  override up(): void {
    this.addSql('create schema if not exists "operations";');
  }
}
