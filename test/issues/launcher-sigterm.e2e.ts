import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { listeningUrl, type LogLine } from '../support/listening.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('./qantara start and SIGTERM', () => {
  it('passes the signal to the server and exits with its status (0) only after it has drained and stopped', async () => {
    const database = await createTestDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'qantara-launcher-'));
    const child = spawn(join(ROOT, 'qantara'), ['start'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        LOG_LEVEL: 'info',
        DEMO_LIBRARY: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const events: string[] = [];
    const lines: LogLine[] = [];
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        events.push('launcher exited');
        resolve(code);
      }),
    );
    const listening = listeningUrl(child, lines);
    try {
      const url = await listening;
      // A request whose body is still arriving when SIGTERM comes keeps the server draining.
      const body = JSON.stringify({ query: '{ operationsHealth { status } }' });
      const inFlight = request(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      });
      const answered = new Promise<number>((resolve, reject) => {
        inFlight.on('response', (response) => {
          response.resume();
          response.on('end', () => {
            events.push('request answered');
            resolve(response.statusCode ?? 0);
          });
        });
        inFlight.on('error', reject);
      });
      inFlight.write(body.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
      inFlight.end(body.slice(10));
      expect(await answered).toBe(200);
      expect(await exited).toBe(0);
      await closed;
      expect(events).toEqual(['request answered', 'launcher exited']);
      expect(lines.map((line) => line.msg)).toContain('stopped');
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
      await database.drop();
    }
  }, 120_000);
});
