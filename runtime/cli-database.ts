import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from './config.js';
import { embeddedUrl, readEmbeddedPassword, startEmbeddedPostgres } from './embedded-postgres.js';
import type { Logger } from './logger.js';

export interface CliDatabase {
  readonly url: string;
  /** Stops the embedded server when this process started it; otherwise does nothing. */
  release(): Promise<void>;
}

/** Port of the embedded server running on `dataDir`, read from PostgreSQL's own `postmaster.pid`. */
async function runningEmbeddedPort(dataDir: string): Promise<number | undefined> {
  let pidFile: string;
  try {
    pidFile = await readFile(join(resolve(dataDir), 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const [pidLine, , , portLine] = pidFile.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || port <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the server runs as another user (root starts it as `postgres`), so it is alive.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return port;
}

/**
 * The database a command-line tool (import, reindex) uses, chosen as the server chooses it:
 * `DATABASE_URL`; else the embedded server of a running `npm start` on the same `DATA_DIR`
 * (so imports work while it runs); else the embedded server started for this command alone.
 */
export async function cliDatabase(config: Config, logger: Logger): Promise<CliDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, release: async () => undefined };
  const dataDir = join(config.dataDir, 'postgres');
  const port = await runningEmbeddedPort(dataDir);
  const password = await readEmbeddedPassword(dataDir);
  if (port !== undefined && password !== undefined) {
    logger.debug({ port }, 'using the running embedded PostgreSQL');
    return { url: embeddedUrl(port, password), release: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres(dataDir, logger);
  return { url: embedded.url, release: () => embedded.stop() };
}
