import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { load, startProcess, stopProcess, type LoadResult } from './harness.js';
import { median, table, type BenchModule } from './report.js';

/** Milliseconds from spawning `main.ts` to its `listening` log line, then a clean stop. */
async function timeToReady(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      DEMO_LIBRARY: 'false',
      // One process, as the figures recorded so far, unless the run asks for workers.
      WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const elapsed = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"msg":"listening"')) resolve(performance.now() - started);
    });
    child.once('exit', (code) => reject(new Error(`main.ts exited with ${code}`)));
  });
  await stopProcess(child);
  return elapsed;
}

async function startup(): Promise<string> {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const dir = await mkdtemp(join(tmpdir(), 'qantara-bench-start-'));
    try {
      cold.push(await timeToReady(join(dir, 'data')));
      warm.push(await timeToReady(join(dir, 'data')));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const fmt = (values: number[]) => `${Math.round(median(values))} ms (${values.map((v) => Math.round(v)).join(', ')})`;
  return table(
    ['start', 'median to ready (runs)'],
    [
      ['cold: empty `DATA_DIR` (initdb + migrations)', fmt(cold)],
      ['warm: existing `DATA_DIR`', fmt(warm)],
    ],
  );
}

const GRAPHQL_HEADERS = { 'content-type': 'application/json' };
const row = (name: string, result: LoadResult, floor?: LoadResult) => [
  name,
  result.rps,
  result.p50,
  result.p99,
  result.errors,
  floor ? `${(floor.rps / Math.max(result.rps, 1)).toFixed(1)}×` : '—',
];

async function throughput(remote: boolean): Promise<Array<Array<string | number>>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'qantara-bench-load-'));
  const { child, info } = await startProcess<{ system: string; floor: string }>(['bench/server.ts', ...(remote ? ['--remote'] : [])], {
    DATA_DIR: dataDir,
  });
  try {
    const label = remote ? 'HTTP subgraphs' : 'in-process subgraphs';
    const floor = await load(`${info.floor}/`);
    const rows: Array<Array<string | number>> = remote ? [] : [row('floor: bare Koa, same JSON, same process', floor)];
    rows.push(row(`GET /healthz (${label})`, await load(`${info.system}/healthz`), floor));
    rows.push(
      row(
        `POST /graphql \`{ __typename }\` (${label})`,
        await load(`${info.system}/graphql`, {
          method: 'POST',
          headers: GRAPHQL_HEADERS,
          body: JSON.stringify({ query: '{ __typename }' }),
        }),
        floor,
      ),
    );
    rows.push(
      row(
        `POST /graphql \`{ libraryHealth { status } }\` (${label})`,
        await load(`${info.system}/graphql`, {
          method: 'POST',
          headers: GRAPHQL_HEADERS,
          body: JSON.stringify({ query: '{ libraryHealth { status } }' }),
        }),
        floor,
      ),
    );
    return rows;
  } finally {
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const foundationBench: BenchModule = {
  name: 'foundation',
  title: 'Foundation: start-up, and the cost of the stack over a bare Koa handler',
  async run() {
    const start = await startup();
    const rows = [...(await throughput(false)), ...(await throughput(true))];
    return `### Time from start to ready

Whole process, \`node --import tsx main.ts\` with embedded PostgreSQL, 3 runs each.

${start}

### Throughput and latency at 32 connections

autocannon, 32 connections, 8 s per row, driven from a separate process. The target
process runs the system and a bare Koa app answering the same JSON (the floor);
\`/healthz\` goes facade → gateway → library subgraph → PostgreSQL (two queries) and
back. "slower" is floor rps / row rps. Latencies in ms.

${table(['target', 'req/s', 'p50', 'p99', 'errors', 'slower than floor'], rows)}
`;
  },
};
