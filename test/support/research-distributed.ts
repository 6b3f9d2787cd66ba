import { loadConfig } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { startSystem, type System } from '../../server/system.js';
import { createTestDatabase } from './database.js';
import { RESEARCH_ADMIN_TOKEN } from './research.js';
import type { TestStack } from './stack.js';

/**
 * The research service deployed by role on one fresh database: three
 * `ROLE=subgraph:<name>` servers, a `ROLE=gateway` (with `DATABASE_URL`, for the
 * subscription feeds), and `ROLE=worker` processes started on demand.
 */
export interface ResearchDeployment {
  /** The gateway, shaped like a test stack for the research helpers. */
  readonly gateway: TestStack;
  startWorker(): Promise<System>;
  stop(): Promise<void>;
}

export async function startResearchDeployment(): Promise<ResearchDeployment> {
  const database = await createTestDatabase();
  const logger = createLogger('silent');
  const base = {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    DEMO_LIBRARY: 'false',
    DEMO_RESEARCH: 'false',
    ADMIN_TOKEN: RESEARCH_ADMIN_TOKEN,
  };
  const started: System[] = [];
  const stop = async () => {
    for (const system of started.reverse()) await system.stop();
    await database.drop();
  };
  try {
    const urls: Record<string, string> = {};
    for (const name of ['library', 'research', 'operations']) {
      const system = await startSystem(loadConfig({ ...base, ROLE: `subgraph:${name}` }), logger);
      started.push(system);
      urls[`SUBGRAPH_${name.toUpperCase()}_URL`] = `${system.url}/graphql`;
    }
    const config = loadConfig({ ...base, ROLE: 'gateway', ...urls });
    const system = await startSystem(config, logger);
    started.push(system);
    const gateway: TestStack = {
      url: system.url,
      config,
      system,
      databaseUrl: database.url,
      fetch: (path, init) => fetch(`${system.url}${path}`, init),
      async graphql(query, variables, headers = {}) {
        const response = await fetch(`${system.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ query, variables }),
        });
        return { status: response.status, body: (await response.json()) as never };
      },
      undeclaredErrors: () => [],
      stop,
      [Symbol.asyncDispose]: stop,
    };
    return {
      gateway,
      async startWorker() {
        const worker = await startSystem(loadConfig({ ...base, ROLE: 'worker' }), logger);
        started.push(worker);
        return worker;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
