import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { Role } from '../../runtime/config.js';

/**
 * Processes of the real deployment, each `node --import tsx main.ts` with its `ROLE`: started
 * and awaited until they listen, killed with SIGKILL (a crash: no shutdown code runs), started
 * again, stopped. For tests and benchmarks that need a process boundary — a worker killed in the
 * middle of a job, several gateways on one database. No vitest here, so benches use it too.
 * `TEST_PROCESS_LOGS=1` echoes every process's log lines to stderr.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const EXIT_WITH_PARENT = pathToFileURL(join(import.meta.dirname, 'exit-with-parent.ts')).href;
/** How long a start may take before the process is given up on (two busy cores, a cold tsx cache). */
const START_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 15_000;
const TAIL_LINES = 40;

/** Children still running, killed if the test process exits without stopping them (and stopping by themselves if it dies). */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** What a child inherits from this process: enough to run node, nothing that configures the app. */
function baseEnv(): Record<string, string> {
  const kept = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : []));
  return {
    ...Object.fromEntries(kept),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DEMO_LIBRARY: 'false',
    CHALLENGE: 'off',
    WEB_CONCURRENCY: '1',
  };
}

export interface RoleProcessOptions {
  readonly role: Role;
  /** The process's configuration, over `PORT=0`, `HOST=127.0.0.1`, `LOG_LEVEL=info`, `DEMO_LIBRARY=false`, `CHALLENGE=off`, `WEB_CONCURRENCY=1`. */
  readonly env?: Readonly<Record<string, string>>;
  /** Names the process in errors and echoed logs; the role unless given. */
  readonly name?: string;
  /** Start from this process's whole environment (a benchmark run with the operator's settings), not a clean one. */
  readonly inheritEnv?: boolean;
  /** Run it as a terminal runs a command: leader of its own process group, which `interrupt()` signals as Ctrl-C does. */
  readonly processGroup?: boolean;
  /** Run the build (`dist/main.js`, `npm run build`) on plain Node, as production does, instead of the sources through tsx. */
  readonly built?: boolean;
}

/** One role process; `start` again after `kill` or `stop` runs it anew with the same configuration. */
export class RoleProcess {
  readonly name: string;
  private child: ChildProcess | undefined;
  private exit: Promise<void> = Promise.resolve();
  private readonly tail: string[] = [];
  private address = '';
  /** Every line the process wrote since its last start, stdout and stderr. */
  readonly lines: string[] = [];
  /** How the last run ended, once it has. */
  exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** How many times it has been started. */
  starts = 0;

  constructor(private readonly options: RoleProcessOptions) {
    this.name = options.name ?? options.role;
  }

  static async start(options: RoleProcessOptions): Promise<RoleProcess> {
    const started = new RoleProcess(options);
    await started.start();
    return started;
  }

  get role(): Role {
    return this.options.role;
  }

  /** `http://127.0.0.1:<port>` of the running process (a new port after each start). */
  get url(): string {
    if (!this.address) throw new Error(`${this.name} is not running`);
    return this.address;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** The last lines the process wrote, for a failure's message. */
  logs(): string {
    return this.tail.join('\n');
  }

  /** Spawns the process and resolves once it logs `listening`; rejects (with its last lines) if it exits or hangs first. */
  async start(): Promise<void> {
    if (this.child) throw new Error(`${this.name} is already running`);
    const entry = this.options.built
      ? ['--import', EXIT_WITH_PARENT, join('dist', 'main.js')]
      : ['--import', 'tsx', '--import', EXIT_WITH_PARENT, 'main.ts'];
    const child = spawn(process.execPath, entry, {
      cwd: ROOT,
      env: { ...baseEnv(), ...(this.options.inheritEnv ? process.env : {}), ...this.options.env, ROLE: this.options.role },
      // stdin stays open: when this process dies, it closes and the child stops (exit-with-parent.ts).
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: this.options.processGroup === true,
    });
    this.child = child;
    this.starts += 1;
    this.lines.length = 0;
    this.exited = undefined;
    live.add(child);
    this.exit = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exited = { code, signal };
        live.delete(child);
        if (this.child === child) {
          this.child = undefined;
          this.address = '';
        }
        resolve();
      }),
    );
    const listening = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.name} did not listen within ${START_TIMEOUT_MS} ms:\n${this.logs()}`)),
        START_TIMEOUT_MS,
      );
      const seen = (line: string) => {
        this.keep(line);
        if (!line.includes('"msg":"listening"')) return;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      };
      createInterface({ input: child.stdout! }).on('line', seen);
      createInterface({ input: child.stderr! }).on('line', (line) => this.keep(line));
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited during start-up (${signal ?? code}):\n${this.logs()}`));
      });
    });
    try {
      this.address = await listening;
    } catch (error) {
      await this.kill();
      throw error;
    }
  }

  private keep(line: string): void {
    this.lines.push(line);
    this.tail.push(line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    if (process.env.TEST_PROCESS_LOGS) process.stderr.write(`[${this.name}] ${line}\n`);
  }

  /** SIGKILL: the process dies where it stands, as in a crash; resolves once it is gone. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exit;
  }

  /** Ctrl-C at a terminal: SIGINT to the whole process group (see `processGroup`); resolves with how the process ended. */
  async interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = this.child;
    if (!child?.pid) throw new Error(`${this.name} is not running`);
    if (!this.options.processGroup) throw new Error(`${this.name} does not lead a process group`);
    process.kill(-child.pid, 'SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exit;
    clearTimeout(timer);
    return this.exited!;
  }

  /** SIGTERM and its clean shutdown (SIGKILL if that hangs). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exit;
    clearTimeout(timer);
  }

  /** Kills the process if it runs, then starts it again. */
  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }
}

/**
 * Role processes on one database sharing what a distributed run shares: `DATABASE_URL`, a
 * `SECRETS_KEY` and a scratch `DATA_DIR` (removed by `stop`). `env` goes to every process.
 */
export class Deployment {
  private readonly processes: RoleProcess[] = [];

  private constructor(
    /** What every process of the deployment gets: `DATABASE_URL`, `DATA_DIR`, `SECRETS_KEY` and the `env` given. */
    readonly env: Readonly<Record<string, string>>,
    private readonly dataDir: string,
  ) {}

  static async create(databaseUrl: string, env: Readonly<Record<string, string>> = {}): Promise<Deployment> {
    const dataDir = await mkdtemp(join(tmpdir(), 'qantara-processes-'));
    const shared = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SECRETS_KEY: randomBytes(32).toString('hex'), ...env };
    return new Deployment(shared, dataDir);
  }

  /** A process of this deployment, not started yet (`start()` it when the test wants it). */
  define(options: RoleProcessOptions): RoleProcess {
    const process = new RoleProcess({ ...options, env: { ...this.env, ...options.env } });
    this.processes.push(process);
    return process;
  }

  /** Starts processes at once (start-up is mostly loading code, which two cores share well). */
  async start(...processes: Array<RoleProcessOptions>): Promise<RoleProcess[]> {
    const created = processes.map((options) => this.define(options));
    const started = await Promise.allSettled(created.map((process) => process.start()));
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    return created;
  }

  /**
   * The three `ROLE=subgraph:<name>` servers and `gateways` `ROLE=gateway` processes in front of
   * them (with `DATABASE_URL`, for subscriptions); `extra` processes start beside the gateways.
   */
  async startRemote(
    gateways: number,
    extra: Array<RoleProcessOptions> = [],
  ): Promise<{ gateways: RoleProcess[]; subgraphs: RoleProcess[]; extra: RoleProcess[] }> {
    const subgraphs = await this.start(
      ...(['library', 'research', 'operations'] as const).map((name) => ({ role: `subgraph:${name}` as const })),
    );
    const urls = Object.fromEntries(
      subgraphs.map((subgraph) => [`SUBGRAPH_${subgraph.role.slice(9).toUpperCase()}_URL`, `${subgraph.url}/graphql`]),
    );
    const started = await this.start(
      ...Array.from({ length: gateways }, (_, index) => ({ role: 'gateway' as const, name: `gateway-${index + 1}`, env: urls })),
      ...extra,
    );
    return { subgraphs, gateways: started.slice(0, gateways), extra: started.slice(gateways) };
  }

  /** Stops every process (each with its clean shutdown) and removes the scratch directory. */
  async stop(): Promise<void> {
    await Promise.all(this.processes.map((process) => process.stop()));
    this.processes.length = 0;
    await rm(this.dataDir, { recursive: true, force: true });
  }
}
