import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGateway } from '../gateway/create-gateway.js';
import { createApp } from '../server/app.js';
import { loadConfig, SUBGRAPH_NAMES, type SubgraphName } from '../runtime/config.js';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { listen } from '../server/listen.js';
import { createLogger } from '../runtime/logger.js';
import { createMetrics } from '../runtime/metrics.js';
import { SUPERGRAPH_PATH } from '../server/system.js';
import { SUBGRAPHS } from '../subgraphs/index.js';
import { LibraryAccess } from '../subgraphs/library/accounts/access.service.js';
import { UsageRepository } from '../subgraphs/library/accounts/usage.repository.js';
import { libraryModule } from '../subgraphs/library/library.module.js';
import { startSubgraph, type RunningSubgraph } from '../subgraphs/shared/host.js';
import type { SubgraphModule } from '../subgraphs/shared/subgraph.js';

/**
 * Bench target for the cost of authentication and quota accounting: two stacks in
 * one process on one embedded PostgreSQL, identical but for `LibraryAccess` — the
 * real one, and one built with the bench-only `unmeteredKeyId` that skips the key
 * lookup and counting. Prints `{metered, unmetered, keyId}` as one JSON line.
 */
process.env.APOLLO_TELEMETRY_DISABLED = '1';
const ADMIN_TOKEN = process.env.BENCH_ADMIN_TOKEN ?? 'bench-admin-token-0123456789';
const logger = createLogger('silent');
const database = await startEmbeddedPostgres(join(process.env.DATA_DIR ?? '.data/bench', 'postgres'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  DEMO_LIBRARY: 'false',
  DATABASE_URL: database.url,
  ADMIN_TOKEN,
});
const stops: Array<() => Promise<unknown>> = [];

async function startStack(library: SubgraphModule): Promise<string> {
  const running = {} as Record<SubgraphName, RunningSubgraph>;
  for (const name of SUBGRAPH_NAMES) {
    running[name] = await startSubgraph(name === 'library' ? library : SUBGRAPHS[name], { config, databaseUrl: database.url, logger });
    stops.push(() => running[name].close());
  }
  const metrics = createMetrics();
  const gateway = await createGateway({ supergraphSdl: readFileSync(SUPERGRAPH_PATH, 'utf8'), subgraphs: running, logger, metrics });
  stops.push(() => gateway.stop());
  const http = await listen(
    createApp({ server: gateway.server, prepare: gateway.prepare, internal: gateway.internal, logger, metrics }),
    0,
    '127.0.0.1',
  );
  stops.push(() => http.close(1000));
  return `http://127.0.0.1:${http.port}`;
}

const metered = await startStack(libraryModule);
const issued = await fetch(`${metered}/admin/keys`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
  body: JSON.stringify({ email: 'bench@example.org', plan: 'unlimited' }),
});
const { id: keyId } = (await issued.json()) as { id: number };

const unmeteredLibrary: SubgraphModule = {
  ...libraryModule,
  createServices: (runtime) => [
    ...libraryModule.createServices(runtime).filter((service) => !(service instanceof LibraryAccess)),
    new LibraryAccess(new UsageRepository(), { unmeteredKeyId: keyId }),
  ],
};
const unmetered = await startStack(unmeteredLibrary);
process.stdout.write(`${JSON.stringify({ metered, unmetered, keyId, adminToken: ADMIN_TOKEN })}\n`);

const stop = async () => {
  for (const step of stops.reverse()) await step().catch(() => undefined);
  await database.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
