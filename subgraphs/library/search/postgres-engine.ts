import type { SubgraphOrm } from '../../shared/orm.js';
import type { SearchEngine } from './search-engine.js';

/** Full-text search in PostgreSQL itself: it is up exactly when the database is. */
export class PostgresSearchEngine implements SearchEngine {
  readonly kind = 'postgres';

  constructor(private readonly orm: SubgraphOrm) {}

  async health(): Promise<{ up: boolean; detail?: string | null }> {
    await this.orm.em.fork().getConnection().execute('select 1');
    return { up: true, detail: 'postgres full text' };
  }
}
