import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { startServer } from './harness.js';
import { median, table, type BenchModule } from './report.js';

/**
 * Operations core: bulk import of a reference book (preview and commit of 10,000 rows), a
 * tenant list (RLS, one transaction as the application role) and a create with an
 * Idempotency-Key, at 1 and 16 connections, against a server in its own process.
 */

const ROOT_USER = { email: 'bench-root@example.org', password: 'bench-root-password' };

async function post(url: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function token(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/iam/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Seconds for preview and commit of 10,000 new rows, three rounds. */
async function importRounds(url: string, admin: string): Promise<string[][]> {
  const preview: number[] = [];
  const commit: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    const rows = Array.from({ length: 10_000 }, (_, index) => ({ code: `R${round}-${index}`, name: `Position ${round}.${index}` }));
    let started = performance.now();
    const batch = await post(`${url}/api/v1/hr/positions/import/preview`, admin, { rows, mode: 'merge' });
    preview.push((performance.now() - started) / 1000);
    started = performance.now();
    await post(`${url}/api/v1/hr/positions/import/commit`, admin, { batchId: batch.batchId }, { 'idempotency-key': randomUUID() });
    commit.push((performance.now() - started) / 1000);
  }
  const seconds = (values: number[]) => median(values).toFixed(2);
  return [
    ['preview (validate, diff against 10k–30k rows, store the batch)', seconds(preview)],
    ['commit (upsert 10,000 rows with their audit rows, one event)', seconds(commit)],
  ];
}

async function drive(url: string, connections: number, options: Partial<autocannon.Options>) {
  const result = await autocannon({ url, connections, duration: 8, ...options });
  return [result.latency.p50, result.latency.p99, Math.round(result.requests.average), result.errors + result.non2xx];
}

export const operationsCoreBench: BenchModule = {
  name: 'operations-core',
  title: 'Operations core: bulk import, tenant list, create with Idempotency-Key',
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'qantara-bench-ops-'));
    const database = await startEmbeddedPostgres(join(dir, 'pg'));
    const server = await startServer({
      DATABASE_URL: database.url,
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DEMO_LIBRARY: 'false',
      DEMO_OPERATIONS: 'true',
      OPS_SUPERADMIN_EMAIL: ROOT_USER.email,
      OPS_SUPERADMIN_PASSWORD: ROOT_USER.password,
    });
    try {
      const admin = await token(server.url, 'admin@demo.qantara.local', 'demo-password');
      const root = await token(server.url, ROOT_USER.email, ROOT_USER.password);
      const imports = await importRounds(server.url, admin);
      const rows: Array<Array<string | number>> = [];
      for (const connections of [1, 16]) {
        const list = await drive(`${server.url}/api/v1/core/production-objects`, connections, {
          headers: { authorization: `Bearer ${admin}` },
        });
        rows.push([`GET tenant list (production objects)`, connections, ...list]);
        let serial = 0;
        const create = await drive(`${server.url}/api/v1/core/organizations`, connections, {
          method: 'POST',
          headers: { authorization: `Bearer ${root}`, 'content-type': 'application/json' },
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                headers: { ...request.headers, 'idempotency-key': randomUUID() },
                body: JSON.stringify({ slug: `bench-${connections}-${(serial += 1)}-${randomUUID().slice(0, 8)}`, name: 'Bench' }),
              }),
            },
          ],
        });
        rows.push([`POST create with Idempotency-Key (organization)`, connections, ...create]);
      }
      return [
        'Server and embedded PostgreSQL in their own processes on this machine; autocannon from the bench process, 8 s per row.',
        '',
        '### Bulk import of a reference book (positions), 10,000 new rows, median of 3 (seconds)',
        '',
        table(['step', 's'], imports),
        '',
        '### Requests (latency in ms)',
        '',
        table(['request', 'connections', 'p50', 'p99', 'req/s', 'non-2xx'], rows),
      ].join('\n');
    } finally {
      await server.stop();
      await database.stop();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
