import { loadConfig } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { startSystem, type System } from '../../server/system.js';
import { createTestDatabase } from './database.js';

const SUBGRAPHS = ['library', 'research', 'operations'] as const;

export interface DistributedStack {
  readonly gateway: System;
  readonly subgraphs: Readonly<Record<(typeof SUBGRAPHS)[number], System>>;
  stop(): Promise<void>;
}

/**
 * The distributed deployment on a fresh database: three `ROLE=subgraph:<name>` servers
 * and a `ROLE=gateway` in front of them, all over HTTP on ephemeral ports. `env` goes
 * to every subgraph server, `libraryEnv` to the library's alone, `gatewayEnv` to the gateway.
 */
export async function startDistributed(
  env: Record<string, string> = {},
  libraryEnv: Record<string, string> = {},
  gatewayEnv: Record<string, string> = {},
): Promise<DistributedStack> {
  const database = await createTestDatabase();
  const logger = createLogger('silent');
  const base = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: database.url, DEMO_LIBRARY: 'false', ...env };
  const started: System[] = [];
  const stop = async () => {
    for (const system of started.reverse()) await system.stop();
    await database.drop();
  };
  try {
    const subgraphs = {} as Record<(typeof SUBGRAPHS)[number], System>;
    const urls: Record<string, string> = {};
    for (const name of SUBGRAPHS) {
      const own = name === 'library' ? libraryEnv : {};
      const system = await startSystem(loadConfig({ ...base, ...own, ROLE: `subgraph:${name}` }), logger);
      started.push(system);
      subgraphs[name] = system;
      urls[`SUBGRAPH_${name.toUpperCase()}_URL`] = `${system.url}/graphql`;
    }
    const gateway = await startSystem(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ROLE: 'gateway', ...urls, ...gatewayEnv }),
      logger,
    );
    started.push(gateway);
    return { gateway, subgraphs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
