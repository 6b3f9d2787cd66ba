import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startProcess, stopProcess } from './harness.js';
import { measureAdmission } from './library-auth-admission.js';
import { median, table, type BenchModule } from './report.js';

interface Target {
  metered: string;
  unmetered: string;
  keyId: number;
  adminToken: string;
}

interface Sample {
  readonly p50: number;
  readonly p99: number;
  readonly rps: number;
  readonly non2xx: number;
}

const PATH = '/v1/usage?days=1';
const DURATION = 5;
const ROUNDS = 5;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * Drives one URL with autocannon and keeps every response time (autocannon's own
 * histogram has whole-millisecond buckets, too coarse for a sub-millisecond delta).
 */
async function measure(url: string, key: string, connections: number): Promise<Sample> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: DURATION, headers: { authorization: `Bearer ${key}` } }, (error, output) =>
      error ? reject(error) : resolve(output),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: Math.round(result.requests.average),
    non2xx: result.non2xx + result.errors,
  };
}

/** A fresh `unlimited` key per run, so no run shares a minute window with another. */
async function freshKey(target: Target): Promise<string> {
  const response = await fetch(`${target.metered}/admin/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': target.adminToken },
    body: JSON.stringify({ email: 'bench@example.org', plan: 'unlimited' }),
  });
  return ((await response.json()) as { key: string }).key;
}

async function compare(target: Target, connections: number): Promise<{ unmetered: Sample; metered: Sample }> {
  const unmetered: Sample[] = [];
  const metered: Sample[] = [];
  const key = await freshKey(target);
  await measure(`${target.unmetered}${PATH}`, key, connections);
  for (let round = 0; round < ROUNDS; round += 1) {
    unmetered.push(await measure(`${target.unmetered}${PATH}`, key, connections));
    metered.push(await measure(`${target.metered}${PATH}`, await freshKey(target), connections));
  }
  const summary = (samples: Sample[]): Sample => ({
    p50: median(samples.map((sample) => sample.p50)),
    p99: median(samples.map((sample) => sample.p99)),
    rps: Math.round(median(samples.map((sample) => sample.rps))),
    non2xx: samples.reduce((sum, sample) => sum + sample.non2xx, 0),
  });
  return { unmetered: summary(unmetered), metered: summary(metered) };
}

const ms = (value: number) => value.toFixed(3);

export const libraryAuthBench: BenchModule = {
  name: 'library-auth',
  title: 'Library: added latency of key authentication and quota accounting',
  async run() {
    const dataDir = await mkdtemp(join(tmpdir(), 'qantara-bench-auth-'));
    const { child, info } = await startProcess<Target>(['bench/library-auth-server.ts'], { DATA_DIR: dataDir });
    try {
      const load = loadavg()
        .map((value) => value.toFixed(2))
        .join(' / ');
      const rows: Array<Array<string | number>> = [];
      for (const connections of [1, 16]) {
        const { unmetered, metered } = await compare(info, connections);
        rows.push([
          `${connections}`,
          'limits disabled (bench-only `LibraryAccess`)',
          ms(unmetered.p50),
          ms(unmetered.p99),
          unmetered.rps,
          unmetered.non2xx,
        ]);
        rows.push([`${connections}`, 'metered: key lookup + atomic count', ms(metered.p50), ms(metered.p99), metered.rps, metered.non2xx]);
        rows.push([
          `${connections}`,
          '**added per call**',
          `**${ms(metered.p50 - unmetered.p50)}**`,
          `**${ms(metered.p99 - unmetered.p99)}**`,
          '',
          '',
        ]);
      }
      const admission = await measureAdmission(join(dataDir, 'admission'));
      return `### In process: \`LibraryAccess.admit\` alone

${admission}

### Over HTTP: the same endpoint with limits on and off

\`GET ${PATH}\` with a bearer key, facade → gateway → library subgraph → PostgreSQL (embedded, same machine),
in one target process holding two identical stacks on one database: one with the real \`LibraryAccess\`
(one call of \`library.admit_call\`: SHA-256 key lookup, status, atomic count of minute and day, usage log),
one built with the bench-only \`unmeteredKeyId\` option that skips it. autocannon from a separate process,
${DURATION} s per run, median of ${ROUNDS} alternating runs after a warm-up; every response time is kept
(autocannon's histogram rounds to whole ms). At 16 connections every call of a run uses one key, so they all
contend for the same counter row — the worst case for one key. Latencies in ms. Load average when the runs
started: ${load}. The machine is shared (other suites were running), so a database round trip
also waits for a CPU at times and figures move by a few tenths of a millisecond between runs.

${table(['connections', 'configuration', 'p50', 'p99', 'req/s', 'non-2xx'], rows)}
`;
    } finally {
      await stopProcess(child);
      // PostgreSQL may still be finishing its shutdown checkpoint when the target has exited.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  },
};
