import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { SUPERGRAPH_PATH } from '../server/system.js';
import { demoEmail, login, OPERATIONS_ENV } from '../test/support/operations.js';
import { targetAt } from '../test/support/demo-organization.js';
import { freePort } from '../test/support/loopback.js';
import { Deployment, type RoleProcess } from '../test/support/processes.js';
import { build, isStale } from '../scripts/build.js';
import { ROOT } from './harness.js';
import { median, table, type BenchModule } from './report.js';

/**
 * Qantara's gateway against its peers on the same subgraphs and the same supergraph: the three
 * subgraphs run as their own processes (`ROLE=subgraph:<name>`, from the build) on one embedded
 * PostgreSQL with the demo library, and in front of them (a) Qantara's gateway (`ROLE=gateway`,
 * from the build, as production runs it), (b) stock `@apollo/gateway` in `@apollo/server`'s
 * standalone server (bench/peers/apollo-stock.ts), (c) Hive Gateway's runtime
 * (bench/peers/hive.ts) with its merging of identical in-flight subgraph requests on, and (d)
 * the same with it off. Each query is driven by autocannon at 1 and 32 connections, in
 * interleaved rounds (every gateway once per round, so a change of the machine's load hits
 * all alike); the figures are medians of the rounds. Gateway CPU per request is the gateway
 * process's user + system time (`/proc/<pid>/stat`) over the cell, divided by the requests.
 * `--seconds=N` sets a cell's length (default 5), `--rounds=N` the rounds (default 3).
 */

/**
 * The cross-subgraph query: root fields of two subgraphs in one operation. Switch it to the
 * federated `User` entity (`researchWorkspace`, `libraryKeys`) once that exists.
 */
/** Three subgraphs through `_entities` (docs/adr/0039): the account from operations, its workspace from research, its keys from the library. */
export const CROSS_SUBGRAPH_QUERY =
  '{ iamMe { user { id email name researchWorkspace { id creditBalance } libraryKeys { plan status createdAt } } } }';

const USER_FIELDS = 'id email name organizationId roles objectIds superAdmin active emailVerified bannedAt apiAccess createdAt';
/** One subgraph (operations), as a signed-in demo Admin: 7 reference books × 5 fields, 12 of the user, 6 of the organization. */
const SINGLE_SUBGRAPH_QUERY = `{ coreReferenceBooks { module entity displayName ownerModule readPath } iamMe { user { ${USER_FIELDS} } organizations { id slug name status plan createdAt } } }`;

/** Whose credential a query carries in `authorization`: a library key, or a demo Admin's access token. */
type Credential = 'library' | 'operations';
const QUERIES: ReadonlyArray<{ name: string; query: string; credential: Credential }> = [
  { name: '`{ __typename }`', query: '{ __typename }', credential: 'library' },
  { name: 'one subgraph, ~53 fields (`coreReferenceBooks` + `iamMe`)', query: SINGLE_SUBGRAPH_QUERY, credential: 'operations' },
  {
    name: 'three subgraphs, the `User` entity (`iamMe { user { researchWorkspace libraryKeys } }`)',
    query: CROSS_SUBGRAPH_QUERY,
    credential: 'operations',
  },
];
const CONNECTIONS = [1, 32] as const;
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

interface Target {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
}

interface Cell {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuMicros: number;
  readonly errors: number;
}

const CLOCK_TICK_MICROS = 10_000;

/** User + system CPU of a process so far, in µs (`/proc/<pid>/stat`, in clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MICROS;
}

/** A peer gateway script on plain Node (type annotations stripped by Node itself), awaited until it prints its address. */
async function startPeer(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'peers', script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', APOLLO_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{')) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, url };
}

async function stopPeer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function graphql(url: string, query: string, credential: string): Promise<{ data?: unknown; errors?: unknown[] }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: unknown; errors?: unknown[] };
}

async function measure(target: Target, query: string, credential: string, connections: number, seconds: number): Promise<Cell> {
  const before = cpuMicros(target.pid);
  const result = await autocannon({
    url: `${target.url}/graphql`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    body: JSON.stringify({ query }),
  });
  const spent = cpuMicros(target.pid) - before;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicros: spent / Math.max(result.requests.total, 1),
    errors: result.errors + result.non2xx,
  };
}

function option(name: string, fallback: number): number {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  const value = given ? Number(given.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const ratio = (value: number, reference: number | undefined) => (reference ? `${(value / reference).toFixed(2)}×` : '—');

async function run(): Promise<string> {
  const seconds = option('seconds', 5);
  const rounds = option('rounds', 3);
  if (isStale()) await build();
  const dir = await mkdtemp(join(tmpdir(), 'qantara-bench-peers-'));
  const database = await startEmbeddedPostgres(join(dir, 'pg'));
  // Research and the library verify the account's token against the keys operations publishes at the public origin: Qantara's gateway.
  const gatewayPort = await freePort();
  const deployment = await Deployment.create(database.url, {
    ...OPERATIONS_ENV,
    ADMIN_TOKEN,
    DEMO_LIBRARY: 'true',
    PUBLIC_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
  });
  const peers: ChildProcess[] = [];
  try {
    const subgraphs: RoleProcess[] = await deployment.start(
      ...(['library', 'research', 'operations'] as const).map((name) => ({ role: `subgraph:${name}` as const, built: true })),
    );
    const urls = Object.fromEntries(
      subgraphs.map((subgraph) => [`SUBGRAPH_${subgraph.role.slice(9).toUpperCase()}_URL`, `${subgraph.url}/graphql`]),
    );
    // One access-log line in a hundred, as a busy gateway is configured (README, `ACCESS_LOG_SAMPLE`); the peers log nothing.
    const [qantara] = await deployment.start({
      role: 'gateway',
      built: true,
      env: { ...urls, ACCESS_LOG_SAMPLE: '0.01', PORT: String(gatewayPort) },
    });
    const peerEnv = { ...urls, SUPERGRAPH_PATH };
    const stock = await startPeer('apollo-stock.ts', peerEnv);
    const hive = await startPeer('hive.ts', peerEnv);
    const hiveOff = await startPeer('hive.ts', { ...peerEnv, HIVE_DEDUPLICATE: 'false' });
    peers.push(stock.child, hive.child, hiveOff.child);
    const targets: Target[] = [
      { name: 'Qantara', url: qantara!.url, pid: qantara!.pid! },
      { name: 'stock @apollo/gateway', url: stock.url, pid: stock.child.pid! },
      { name: 'Hive, dedup on', url: hive.url, pid: hive.child.pid! },
      { name: 'Hive, dedup off', url: hiveOff.url, pid: hiveOff.child.pid! },
    ];
    const issued = await fetch(`${qantara!.url}/admin/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ email: 'bench@example.org', plan: 'unlimited' }),
    });
    const { key } = (await issued.json()) as { key: string };
    const admin = await login(targetAt(qantara!.url, database.url), demoEmail('Admin'));
    const credentials: Record<Credential, string> = { library: key, operations: admin.token };
    // Every gateway answers every query with data and no error before anything is measured.
    for (const { query, credential } of QUERIES) {
      for (const target of targets) {
        const answer = await graphql(target.url, query, credentials[credential]);
        if (!answer.data || answer.errors) throw new Error(`${target.name} answered ${query} with ${JSON.stringify(answer).slice(0, 500)}`);
      }
    }
    const cells = new Map<string, Cell[]>();
    const cellKey = (query: number, connections: number, target: number) => `${query}/${connections}/${target}`;
    for (const [index] of QUERIES.entries()) {
      for (const connections of CONNECTIONS) {
        // A short warm-up per gateway, then the interleaved rounds.
        const { query, credential } = QUERIES[index]!;
        for (const target of targets) await measure(target, query, credentials[credential], connections, 1);
        for (let round = 0; round < rounds; round += 1) {
          for (const [position, target] of targets.entries()) {
            const cell = await measure(target, query, credentials[credential], connections, seconds);
            const id = cellKey(index, connections, position);
            cells.set(id, [...(cells.get(id) ?? []), cell]);
          }
        }
      }
    }
    const med = (id: string, pick: (cell: Cell) => number) => median(cells.get(id)!.map(pick));
    const rows: Array<Array<string | number>> = [];
    const verdicts: string[] = [];
    for (const [index, { name }] of QUERIES.entries()) {
      for (const connections of CONNECTIONS) {
        const rps = targets.map((_, position) => med(cellKey(index, connections, position), (cell) => cell.rps));
        const cpu = targets.map((_, position) => med(cellKey(index, connections, position), (cell) => cell.cpuMicros));
        for (const [position, target] of targets.entries()) {
          const id = cellKey(index, connections, position);
          rows.push([
            name,
            connections,
            target.name,
            Math.round(rps[position]!),
            med(id, (cell) => cell.p50),
            med(id, (cell) => cell.p99),
            Math.round(cpu[position]!),
            ratio(rps[position]!, rps[1]),
            ratio(rps[position]!, rps[2]),
            ratio(cpu[position]!, cpu[1]),
            cells.get(id)!.reduce((sum, cell) => sum + cell.errors, 0),
          ]);
        }
        const rpsRatio = rps[0]! / rps[1]!;
        const cpuRatio = cpu[0]! / cpu[1]!;
        verdicts.push(
          `- ${name}, ${connections} connection(s): req/s ${rpsRatio.toFixed(2)}× stock — ${
            rpsRatio >= 1 ? 'met' : `missed by ${((1 - rpsRatio) * 100).toFixed(0)} %`
          }; CPU per request ${cpuRatio.toFixed(2)}× stock — ${cpuRatio <= 1.1 ? 'met' : `missed by ${((cpuRatio / 1.1 - 1) * 100).toFixed(0)} %`}`,
        );
      }
    }
    return `Subgraphs: three \`ROLE=subgraph:<name>\` processes from the build on one embedded PostgreSQL with the demo
library and the demo organization; the library key is of the \`unlimited\` plan, the operations token a demo Admin's,
and every gateway forwards \`authorization\`. Qantara's gateway runs
\`node dist/main.js\` with \`LOG_LEVEL=info\`, \`ACCESS_LOG_SAMPLE=0.01\` and the other defaults (\`GRAPHQL_DEDUPLICATE=true\`);
the peers are bench/peers/apollo-stock.ts (\`@apollo/gateway\` + \`@apollo/server\` standalone,
\`APOLLO_TELEMETRY_DISABLED=1\`) and bench/peers/hive.ts (\`@graphql-hive/gateway-runtime\`, subgraph request
deduplication on or off). autocannon in the benchmark's process, ${seconds} s per cell after a 1 s warm-up,
${rounds} interleaved rounds, medians. Latencies in ms; CPU in µs of the gateway process per request (10 ms clock
ticks over the cell). Ratios are to stock @apollo/gateway (b) and to Hive with dedup on (c); the machine is
shared, so only figures of the same run compare.

Cross-subgraph query: \`${CROSS_SUBGRAPH_QUERY}\`.

${table(['query', 'conn.', 'gateway', 'req/s', 'p50', 'p99', 'CPU µs/req', 'req/s ÷ (b)', 'req/s ÷ (c)', 'CPU ÷ (b)', 'errors'], rows)}

Targets (Qantara's req/s ≥ 1.0× stock on every row; CPU per request ≤ 1.1× stock):

${verdicts.join('\n')}

Before docs/adr/0041 Qantara served 0.34–0.79× stock's req/s at 1.5–2.9× its CPU per request. The rows of the
real queries at 32 connections are won by merging identical in-flight subgraph queries (every autocannon
request is the same query with the same credential, the best case for it; Hive's own merging shows the same);
compare the Hive rows with dedup on and off. What is left on \`{ __typename }\` is spread thin: in a CPU profile of
the gateway at 8 connections (\`node --cpu-prof\`, steady state) a third of its CPU is the kernel's \`writev\` of
responses on loopback and a seventh garbage collection; Apollo Server's request pipeline takes about a tenth, and
Qantara's own code on the path (request scope, body reading, the Koa handler, metrics, the edge plugin) about 6 %.
`;
  } finally {
    await Promise.all(peers.map(stopPeer));
    await deployment.stop();
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export const gatewayPeersBench: BenchModule = {
  name: 'gateway-peers',
  title: 'Gateway against its peers: Qantara, stock @apollo/gateway and Hive Gateway on the same subgraphs',
  run,
};
