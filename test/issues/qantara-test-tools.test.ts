import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const LAUNCHER = join(import.meta.dirname, '..', '..', 'qantara');
let dir: string;

/**
 * Runs a copy of the launcher on a machine with nothing but bash, Node and stand-ins: `id`
 * (the user), `apt-get` (installs the tools when asked) and `npm` (logs what it was asked).
 */
function launch(script: string, uid: number, tools: { promtool?: boolean; chromium?: boolean; clamd?: boolean } = {}) {
  dir = mkdtempSync(join(tmpdir(), 'qantara-launcher-tools-'));
  const bin = join(dir, 'bin');
  const log = join(dir, 'calls.log');
  const chromium = join(dir, 'chromium');
  const clamd = join(dir, 'clamd');
  mkdirSync(bin);
  copyFileSync(LAUNCHER, join(dir, 'qantara'));
  writeFileSync(log, '');
  const tool = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync('/usr/bin/dirname', join(bin, 'dirname'));
  tool('id', `echo ${uid}`);
  tool('npm', `echo "npm $*" >> ${log}`);
  tool(
    'apt-get',
    `echo "apt-get $*" >> ${log}\ncase "$*" in *install*) for f in ${bin}/promtool ${chromium} ${clamd}; do printf '#!/bin/sh\\n' > $f; /bin/chmod +x $f; done;; esac`,
  );
  if (tools.promtool) tool('promtool', 'exit 0');
  if (tools.chromium) tool('../chromium', 'exit 0');
  if (tools.clamd) tool('../clamd', 'exit 0');
  const result = spawnSync('/bin/bash', [join(dir, 'qantara'), script], {
    env: { PATH: bin, CHROMIUM_PATH: chromium, CLAMD_PATH: clamd, HOME: dir },
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr, calls: readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) };
}

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('./qantara test on a machine without promtool, Chromium and clamd', () => {
  it('stops at once with one line naming the command to run, when it cannot install them', () => {
    const { status, stderr, calls } = launch('test', 1000);
    expect(status).toBe(1);
    expect(stderr).toBe(
      'qantara: the tests need prometheus chromium clamav-daemon; install first: sudo apt-get install -y prometheus chromium clamav-daemon\n',
    );
    expect(calls).toEqual([]);
  });

  it('installs them from Debian as root, then runs the tests', () => {
    const { status, calls } = launch('test', 0);
    expect(status).toBe(0);
    expect(calls).toEqual([
      'apt-get update -qq',
      'apt-get install -y -qq --no-install-recommends prometheus chromium clamav-daemon',
      'npm ci --no-audit --no-fund',
      'npm run test --',
    ]);
  });

  it('asks for nothing when all are there, and names only what is missing otherwise', () => {
    expect(launch('test', 1000, { promtool: true, chromium: true, clamd: true }).calls).toEqual([
      'npm ci --no-audit --no-fund',
      'npm run test --',
    ]);
    rmSync(dir, { recursive: true, force: true });
    expect(launch('test:only', 1000, { promtool: true, clamd: true }).stderr).toBe(
      'qantara: the tests need chromium; install first: sudo apt-get install -y chromium\n',
    );
  });
});
