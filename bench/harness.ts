import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { RoleProcess } from '../test/support/processes.js';

export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/** Drives `url` with autocannon from this process (the target runs in another). */
export async function load(
  url: string,
  options: { connections?: number; duration?: number; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 32,
    duration: options.duration ?? 8,
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.headers,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Starts a node entry point with tsx and waits for its first stdout line that is JSON. */
export async function startProcess<T>(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<T>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        resolve(JSON.parse(line) as T);
      } catch {
        // wait for the JSON line
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  return { child, info };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export const ROOT = join(import.meta.dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'openiti');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'library');

/** The real OpenITI corpus when it is beside the project, else the test fixtures. */
export function corpusFiles(): string[] {
  if (existsSync(CORPUS))
    return readdirSync(CORPUS)
      .filter((name) => /^\d{4}/.test(name))
      .map((name) => join(CORPUS, name));
  return [join(FIXTURES, 'baghdad-excerpt-ara1'), join(FIXTURES, 'pages.jsonl')];
}

/** Starts `main.ts` (`ROLE=all`) in its own process, with this process's environment under `env`, and waits until it listens. */
export async function startServer(env: Record<string, string>): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const server = await RoleProcess.start({ role: 'all', env, name: 'server', inheritEnv: true });
  return { url: server.url, pid: server.pid!, stop: () => server.stop() };
}

export interface LibraryServer {
  readonly url: string;
  /** The server process (its CPU time is read from `/proc`). */
  readonly pid: number;
  /** A key of the `unlimited` plan. */
  readonly key: string;
  readonly adminToken: string;
  /** Books and pages the OpenITI import added (besides the demo Qur'an). */
  readonly books: string;
  readonly pages: string;
  /** Scratch directory of this server, removed by `stop`. */
  readonly dir: string;
  stop(): Promise<void>;
}

/** The admin token of the servers the benchmarks start. */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** A server `ownServer` started, with what its `prepare` returned. */
export type OwnServer<T> = T & { readonly url: string; readonly pid: number; readonly dir: string; stop(): Promise<void> };

/**
 * A server in its own process on its own embedded PostgreSQL, both under a temporary directory
 * named after `name`, configured by `env` over the bench defaults; `prepare` readies it (imports,
 * keys) and what it returns is handed on. `stop` stops both and removes the directory; a start or
 * preparation that fails does too.
 */
export async function ownServer<T>(
  name: string,
  env: Record<string, string>,
  prepare: (url: string, env: Record<string, string>) => Promise<T>,
): Promise<OwnServer<T>> {
  const dir = await mkdtemp(join(tmpdir(), `qantara-bench-${name}-`));
  const database = await startEmbeddedPostgres(join(dir, 'pg'));
  const serverEnv = { DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ADMIN_TOKEN: BENCH_ADMIN_TOKEN, ...env };
  let server: { url: string; pid: number; stop: () => Promise<void> } | undefined;
  const stop = async () => {
    await server?.stop();
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    server = await startServer(serverEnv);
    return { ...(await prepare(server.url, serverEnv)), url: server.url, pid: server.pid, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A server of its own (see `ownServer`) holding the demo Qur'an and the corpus imported through
 * `npm run import`, with an `unlimited` key issued.
 */
export function startLibraryServer(): Promise<LibraryServer> {
  return ownServer('library', { DEMO_LIBRARY: 'true' }, async (url, env) => {
    const imported = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...corpusFiles()], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    });
    const [books = '?', pages = '?'] = /(\d+) book\(s\), (\d+) pages/.exec(imported.stdout)?.slice(1) ?? [];
    const issued = await fetch(`${url}/admin/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': BENCH_ADMIN_TOKEN },
      body: JSON.stringify({ email: 'bench@example.org', plan: 'unlimited' }),
    });
    const { key } = (await issued.json()) as { key: string };
    return { key, adminToken: BENCH_ADMIN_TOKEN, books, pages };
  });
}
