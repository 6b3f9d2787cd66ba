import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { GatewayContext } from '../gateway/context.js';
import { createGateway, type Gateway } from '../gateway/create-gateway.js';
import { streamOwners } from '../contracts/registry.js';
import { loadOperations } from '../rest-facade/operations.js';
import { loadConfig, SUBGRAPH_NAMES, type SubgraphName } from '../runtime/config.js';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { createLogger } from '../runtime/logger.js';
import { createMetrics } from '../runtime/metrics.js';
import { createApp } from '../server/app.js';
import { listen } from '../server/listen.js';
import { SUPERGRAPH_PATH } from '../server/system.js';
import { SUBGRAPHS } from '../subgraphs/index.js';
import { startSubgraph, type RunningSubgraph } from '../subgraphs/shared/host.js';
import { startLibraryServer } from './harness.js';
import { RARE } from './library-scale.js';
import { median, table, type BenchModule } from './report.js';

/** Alternating blocks per path and concurrency: blocks of one path differ by a few per cent, the size of the difference measured. */
const ROUNDS = 10;
/** Rare-word queries, the library-scale section's. */
const QUERIES = RARE;
const OPERATION = 'LibraryRetrieve';
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** CPU time of this process in ms. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

type Run = (index: number) => Promise<void>;

/** `calls` calls of `run`, `concurrency` at a time: wall time and CPU time of this process per call. */
async function block(run: Run, calls: number, concurrency: number): Promise<{ cpu: number; rps: number }> {
  const cpu = cpuMs();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) await run(next++);
    }),
  );
  return { cpu: (cpuMs() - cpu) / calls, rps: (calls * 1000) / (performance.now() - started) };
}

/**
 * The two ways the edge has run a REST route's named operation, in one process on one stack,
 * in alternating blocks so that both see the same machine: Apollo Server's request pipeline
 * (`executeOperation` with the document's text, as before) and the operation prepared at
 * start-up (`prepare`), both through the gateway's query plan into the library subgraph.
 */
async function inProcess(): Promise<Array<Array<string | number>>> {
  const dir = await mkdtemp(join(tmpdir(), 'qantara-bench-hot-path-'));
  const database = await startEmbeddedPostgres(join(dir, 'pg'));
  const stops: Array<() => Promise<unknown>> = [];
  try {
    const logger = createLogger('silent');
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DEMO_LIBRARY: 'true',
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
    });
    const running = {} as Record<SubgraphName, RunningSubgraph>;
    for (const name of SUBGRAPH_NAMES) {
      running[name] = await startSubgraph(SUBGRAPHS[name], { config, databaseUrl: database.url, logger });
      stops.push(() => running[name].close());
    }
    const metrics = createMetrics();
    const gateway: Gateway = await createGateway({
      supergraphSdl: readFileSync(SUPERGRAPH_PATH, 'utf8'),
      subgraphs: running,
      logger,
      metrics,
      streamOwners: streamOwners(),
    });
    stops.push(() => gateway.stop());
    const http = await listen(
      createApp({
        server: gateway.server,
        prepare: gateway.prepare,
        internal: gateway.internal,
        streams: gateway.streams,
        logger,
        metrics,
      }),
      0,
      '127.0.0.1',
    );
    stops.push(() => http.close(1000));
    const issued = await fetch(`http://127.0.0.1:${http.port}/admin/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ email: 'bench@example.org', plan: 'unlimited' }),
    });
    const { key } = (await issued.json()) as { key: string };
    const document = loadOperations().get(OPERATION)!;
    const prepared = gateway.prepare(new Map([[OPERATION, document]]));
    const context = (index: number): GatewayContext => ({
      headers: { authorization: `Bearer ${key}`, 'x-request-id': `bench-${index}` },
      requestId: `bench-${index}`,
      clientIp: '127.0.0.1',
      logger,
      subgraphExtensions: {},
    });
    const variables = (index: number) => ({ q: QUERIES[index % QUERIES.length]!, limit: 8 });
    const paths: Record<string, Run> = {
      'Apollo Server pipeline (before)': async (index) => {
        const response = await gateway.server.executeOperation(
          { query: document, operationName: OPERATION, variables: variables(index) },
          { contextValue: context(index) },
        );
        if (response.body.kind !== 'single' || response.body.singleResult.errors) throw new Error('retrieval failed');
      },
      'prepared at start-up (after)': async (index) => {
        const result = await prepared(OPERATION, variables(index), context(index));
        if (result.errors) throw new Error('retrieval failed');
      },
    };
    const rows: Array<Array<string | number>> = [];
    for (const concurrency of [1, 8]) {
      for (const run of Object.values(paths)) await block(run, 50, concurrency); // warm-up
      const measured = new Map<string, Array<{ cpu: number; rps: number }>>(Object.keys(paths).map((name) => [name, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, run] of Object.entries(paths)) measured.get(name)!.push(await block(run, 100, concurrency));
      }
      for (const [name, blocks] of measured) {
        rows.push([concurrency, name, Math.round(median(blocks.map((b) => b.rps))), median(blocks.map((b) => b.cpu)).toFixed(3)]);
      }
    }
    return rows;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** CPU time (user + system) of a process in ms, from `/proc`. */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** `GET /v1/retrieve` over HTTP through the whole stack, in a server process of its own. */
async function overHttp(): Promise<Array<Array<string | number>>> {
  const server = await startLibraryServer();
  try {
    const { pid } = server;
    const run = (connections: number, duration: number) =>
      autocannon({
        url: server.url,
        connections,
        duration,
        headers: { authorization: `Bearer ${server.key}` },
        requests: QUERIES.map((q) => ({ method: 'GET' as const, path: `/v1/retrieve?${new URLSearchParams({ q, limit: '8' })}` })),
      });
    await run(8, 5); // warm-up
    const rows: Array<Array<string | number>> = [];
    for (const connections of [1, 8]) {
      const cpu = processCpuMs(pid);
      const result = await run(connections, 10);
      const perRequest = (processCpuMs(pid) - cpu) / result.requests.total;
      rows.push([
        connections,
        Math.round(result.requests.average),
        result.latency.p50,
        result.latency.p99,
        perRequest.toFixed(2),
        result.errors + result.non2xx,
      ]);
    }
    return rows;
  } finally {
    await server.stop();
  }
}

async function restHotPath(): Promise<string> {
  const paths = await inProcess();
  // A server that does not start on a busy machine leaves the in-process rows standing.
  const http = await overHttp().catch((error: unknown) => [['not measured', String(error).split('\n')[0]!, '', '', '', '']]);
  return [
    `The edge's cost per REST call of a named operation outside the engine (docs/adr/0050-prepared-named-operations.md).`,
    `In process: the \`${OPERATION}\` operation of \`GET /v1/retrieve\` (rare-word queries, limit 8, an \`unlimited\` key) run`,
    "through the gateway into the library subgraph on the demo Qur'an (embedded PostgreSQL), the two ways the edge has run",
    `it, in ${ROUNDS} alternating blocks of 100 calls each after a warm-up block; medians of the blocks. CPU is this process's`,
    '(edge, gateway, subgraph and engine: one Node.js thread) per call.',
    '',
    table(['concurrent calls', 'path', 'calls/s', 'CPU ms per call'], paths),
    '',
    "Over HTTP: `GET /v1/retrieve?q=…&limit=8` against a server process of its own (demo Qur'an plus the imported corpus),",
    'autocannon from this process, 10 s per row after a 5 s warm-up; CPU of the server process per request from `/proc`.',
    '',
    table(['connections', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'errors + non-2xx'], http),
  ].join('\n');
}

export const restHotPathBench: BenchModule = {
  name: 'rest-hot-path',
  title: 'REST hot path: a named operation prepared at start-up against Apollo Server’s pipeline',
  run: restHotPath,
};
