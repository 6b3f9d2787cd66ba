import 'reflect-metadata';
import Koa from 'koa';
import { loadConfig } from '../runtime/config.js';
import { listen } from '../server/listen.js';
import { createLogger } from '../runtime/logger.js';
import { startSystem, type System } from '../server/system.js';

/**
 * A bench target in its own process: the system (subgraphs in-process, or over HTTP
 * with `--remote`) plus a bare Koa app answering the same JSON, the floor to compare with.
 * Prints one JSON line `{system, floor}` with both base URLs.
 */
const remote = process.argv.includes('--remote');
const logger = createLogger('silent');
const base = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  DEMO_LIBRARY: 'false',
  DATABASE_URL: process.env.DATABASE_URL,
  DATA_DIR: process.env.DATA_DIR,
};
const systems: System[] = [];
let system: System;
if (remote) {
  const urls: Record<string, string> = {};
  for (const name of ['library', 'research', 'operations']) {
    const subgraph = await startSystem(loadConfig({ ...base, ROLE: `subgraph:${name}` }), logger);
    systems.push(subgraph);
    urls[`SUBGRAPH_${name.toUpperCase()}_URL`] = `${subgraph.url}/graphql`;
    base.DATABASE_URL ??= subgraph.databaseUrl;
  }
  system = await startSystem(loadConfig({ ...base, ROLE: 'gateway', ...urls }), logger);
} else {
  system = await startSystem(loadConfig(base), logger);
}
systems.push(system);

const sample = (await (await fetch(`${system.url}/healthz`)).json()) as unknown;
const floorApp = new Koa();
floorApp.use((ctx) => {
  ctx.body = sample;
});
const floor = await listen(floorApp, 0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ system: system.url, floor: `http://127.0.0.1:${floor.port}` })}\n`);

const stop = async () => {
  await floor.close(1000);
  for (const running of systems.reverse()) await running.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
