import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const LAUNCHER = join(import.meta.dirname, '..', '..', 'qantara');

/** A copy of the launcher beside installed dependencies, on a PATH holding only this Node, `dirname` and `sh`. */
const dir = mkdtempSync(join(tmpdir(), 'qantara-exec-'));
const bin = join(dir, 'bin');
mkdirSync(bin);
mkdirSync(join(dir, 'node_modules'));
copyFileSync(LAUNCHER, join(dir, 'qantara'));
writeFileSync(join(dir, 'package-lock.json'), '{}');
writeFileSync(join(dir, 'node_modules', '.package-lock.json'), '{}');
utimesSync(join(dir, 'package-lock.json'), new Date(0), new Date(0));
symlinkSync(process.execPath, join(bin, 'node'));
symlinkSync('/usr/bin/dirname', join(bin, 'dirname'));
symlinkSync('/bin/sh', join(bin, 'sh'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exec = (...args: string[]) =>
  spawnSync('/bin/bash', [join(dir, 'qantara'), 'exec', ...args], { env: { PATH: bin, HOME: dir }, encoding: 'utf8' });

describe('./qantara exec', () => {
  it("runs the command on the launcher's Node and gives its output and exit status", () => {
    const version = exec('node', '-p', 'process.versions.node');
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(process.versions.node);
    const failing = exec('sh', '-c', 'echo from-sh; exit 7');
    expect(failing.status).toBe(7);
    expect(failing.stdout).toBe('from-sh\n');
  });

  it('without a command, says how to use it and exits 2', () => {
    const bare = exec();
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/^qantara: usage: \.\/qantara exec CMD/);
  });
});
