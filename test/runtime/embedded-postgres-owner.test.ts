import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, startEmbeddedPostgres } from '../../runtime/embedded-postgres.js';

const root = mkdtempSync(join(tmpdir(), 'qantara-pg-owner-'));
// As root the server runs as `postgres`, which must be able to reach the cluster directory.
chmodSync(root, 0o711);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const postmasterPid = (dataDir: string) => Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('embedded PostgreSQL ownership', () => {
  it('refuses a second start on a directory whose cluster this running process started, naming the postmaster and its owner', async () => {
    const dataDir = join(root, 'owned', 'postgres');
    const first = await startEmbeddedPostgres(dataDir);
    try {
      expect(readFileSync(`${dataDir}.owner`, 'utf8').trim()).toBe(String(process.pid));
      const refused = await startEmbeddedPostgres(dataDir).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DataDirInUseError);
      expect(refused).toMatchObject({ pid: postmasterPid(dataDir), owner: process.pid });
    } finally {
      await first.stop();
    }
  }, 120_000);

  it('leaves alone a live process a stale postmaster.pid names when it is not a PostgreSQL on the directory, and starts', async () => {
    const dataDir = join(root, 'reused', 'postgres');
    await (await startEmbeddedPostgres(dataDir)).stop();
    // As after a reboot: the pid the file names now belongs to some other program.
    const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
    const gone = new Promise((resolve) => stranger.once('exit', resolve));
    writeFileSync(join(dataDir, 'postmaster.pid'), `${stranger.pid}\n${dataDir}\n0\n5432\n`);
    try {
      const server = await startEmbeddedPostgres(dataDir);
      try {
        expect(postmasterPid(dataDir)).not.toBe(stranger.pid);
        expect(stranger.exitCode).toBeNull();
        expect(stranger.signalCode).toBeNull();
      } finally {
        await server.stop();
      }
    } finally {
      stranger.kill('SIGKILL');
      await gone;
    }
  }, 120_000);
});
