import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RoleProcess } from '../support/processes.js';

/**
 * The embedded PostgreSQL as an operator meets it: `./qantara start` at a terminal, Ctrl-C,
 * `kill -9`, a second start on the same DATA_DIR. Real server processes, each a process-group
 * leader as a terminal starts it.
 */

const scratch: string[] = [];
const started: RoleProcess[] = [];

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'qantara-lifecycle-'));
  scratch.push(dir);
  return dir;
}

function server(dir: string, name: string, env: Record<string, string> = {}): RoleProcess {
  const qantara = new RoleProcess({ role: 'all', name, processGroup: true, env: { DATA_DIR: dir, DATABASE_URL: '', ...env } });
  started.push(qantara);
  return qantara;
}

/** The postmaster's pid from the cluster's `postmaster.pid`, or undefined when there is none. */
function postmasterPid(dir: string): number | undefined {
  const file = join(dir, 'postgres', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop()));
  // A cluster a failed test left behind is stopped before its directory goes.
  for (const dir of scratch.splice(0)) {
    const pid = postmasterPid(dir);
    if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGQUIT');
    await rm(dir, { recursive: true, force: true });
  }
});

const logLevelOf = (line: string): number | undefined => {
  try {
    return (JSON.parse(line) as { level?: number }).level;
  } catch {
    return undefined;
  }
};

describe('embedded PostgreSQL lifecycle', () => {
  it('after SIGKILL of the server, a new start on the same DATA_DIR stops the left cluster and becomes healthy', async () => {
    const dir = await dataDir();
    const first = server(dir, 'killed');
    await first.start();
    const left = postmasterPid(dir)!;
    await first.kill();
    // The cluster runs in its own session, so it outlives the killed server.
    expect(alive(left)).toBe(true);

    const second = server(dir, 'after-kill');
    await second.start();
    expect(alive(left)).toBe(false);
    expect(postmasterPid(dir)).not.toBe(left);
    const ready = await fetch(`${second.url}/api/v1/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
    expect(second.lines.some((line) => line.includes('left running by a Qantara that did not stop it'))).toBe(true);
  }, 300_000);

  it('Ctrl-C (SIGINT to the process group) stops in order: exit 0, no warning, error or stack trace, cluster stopped', async () => {
    const dir = await dataDir();
    const qantara = server(dir, 'interrupted');
    await qantara.start();
    const pid = postmasterPid(dir)!;
    const ended = await qantara.interrupt();
    expect(ended).toEqual({ code: 0, signal: null });
    const complaints = qantara.lines.filter((line) => (logLevelOf(line) ?? 0) >= 40 || /^\s+at /.test(line) || /"stack"/.test(line));
    expect(complaints).toEqual([]);
    expect(qantara.lines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    expect(alive(pid)).toBe(false);
    expect(postmasterPid(dir)).toBeUndefined();
  }, 300_000);

  it('with two HTTP workers, Ctrl-C stops both, then the cluster: exit 0, no warning, error or stack trace, no process left', async () => {
    const dir = await dataDir();
    const qantara = server(dir, 'interrupted-workers', { WEB_CONCURRENCY: '2' });
    await qantara.start();
    const pid = postmasterPid(dir)!;
    const workerPids = () =>
      qantara.lines.filter((line) => line.includes('"msg":"worker listening"')).map((line) => (JSON.parse(line) as { pid: number }).pid);
    // Each process writes its log asynchronously, so a worker's own line may reach the pipe just after the primary's `listening`.
    await expect.poll(workerPids, { timeout: 10_000 }).toHaveLength(2);
    const workers = workerPids();
    const ended = await qantara.interrupt();
    expect(ended).toEqual({ code: 0, signal: null });
    const complaints = qantara.lines.filter((line) => (logLevelOf(line) ?? 0) >= 40 || /^\s+at /.test(line) || /"stack"/.test(line));
    expect(complaints).toEqual([]);
    expect(qantara.lines.filter((line) => line.includes('"msg":"stopped"'))).toHaveLength(3);
    expect([pid, ...workers].filter(alive)).toEqual([]);
    expect(postmasterPid(dir)).toBeUndefined();
  }, 300_000);

  it('a second start on a DATA_DIR in use by a running Qantara fails with one readable line and leaves the first serving', async () => {
    const dir = await dataDir();
    const first = server(dir, 'first');
    await first.start();
    const pid = postmasterPid(dir)!;

    const second = server(dir, 'second');
    await expect(second.start()).rejects.toThrow(/exited during start-up \(1\)/);
    const failures = second.lines.filter((line) => line.includes('start-up failed'));
    expect(failures).toHaveLength(1);
    const failure = JSON.parse(failures[0]!) as { level: number; msg: string; err?: unknown };
    expect(failure.level).toBe(60);
    expect(failure.msg).toBe(
      `start-up failed: DATA_DIR ${dir} is in use by PostgreSQL pid ${pid} — another Qantara running (pid ${first.pid})?`,
    );
    expect(failure.err).toBeUndefined();

    expect(postmasterPid(dir)).toBe(pid);
    expect((await fetch(`${first.url}/api/v1/health/ready`)).status).toBe(200);
  }, 300_000);
});
