import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const asRoot = userInfo().uid === 0;

function probe(dataDir: string, runAs?: string): { uid: number; version: string } {
  const command = [process.execPath, '--import', 'tsx', 'test/support/embedded-postgres-probe.ts', dataDir];
  const [file, args] = runAs ? ['runuser', ['-u', runAs, '--', ...command]] : [command[0]!, command.slice(1)];
  const result = spawnSync(file, args, { encoding: 'utf8', timeout: 90_000 });
  if (result.status !== 0) throw new Error(`probe failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { uid: number; version: string };
}

describe('embedded PostgreSQL', () => {
  it(`initialises and serves as the current user (${asRoot ? 'root, server run as postgres' : 'not root'})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'qantara-embedded-'));
    try {
      const outcome = probe(join(dir, 'pg'));
      expect(outcome.uid).toBe(userInfo().uid);
      expect(outcome.version).toMatch(/^PostgreSQL \d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('initialises and serves as an ordinary user', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qantara-embedded-user-'));
    try {
      if (asRoot) {
        // From root, prove the non-root path with the machine's `postgres` account (created if missing).
        spawnSync('sh', ['-c', 'id postgres >/dev/null 2>&1 || (groupadd postgres; useradd -g postgres postgres)']);
        const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
        const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
        chownSync(dir, uid, gid);
        const outcome = probe(join(dir, 'pg'), 'postgres');
        expect(outcome.uid).toBe(uid);
        expect(outcome.version).toMatch(/^PostgreSQL \d+/);
      } else {
        expect(probe(join(dir, 'pg')).uid).toBe(userInfo().uid);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
