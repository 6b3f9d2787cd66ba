import type { Config } from '../../../runtime/config.js';
import type { SubgraphOrm } from '../../shared/orm.js';
import { MeilisearchEngine } from './meilisearch-engine.js';
import { PostgresSearchEngine } from './postgres-engine.js';
import type { SearchEngine } from './search-engine.js';

/** Meilisearch when `MEILI_HOST` is set, PostgreSQL full text otherwise. */
export function createSearchEngine(config: Pick<Config, 'meiliHost' | 'meiliApiKey'>, orm: SubgraphOrm): SearchEngine {
  if (config.meiliHost) return new MeilisearchEngine({ host: config.meiliHost, apiKey: config.meiliApiKey });
  return new PostgresSearchEngine(orm);
}
