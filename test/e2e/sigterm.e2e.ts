import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listeningUrl, type LogLine } from '../support/listening.js';

describe('npm start on embedded defaults', () => {
  it('starts an embedded PostgreSQL, serves, and on SIGTERM drains, stops the database and exits 0', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'qantara-sigterm-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info', DEMO_LIBRARY: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: LogLine[] = [];
    const listening = listeningUrl(child, lines);
    try {
      const url = await listening;
      expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);
      // A request whose body is still arriving when SIGTERM comes must be answered.
      const body = JSON.stringify({ query: '{ operationsHealth { status } }' });
      const inFlight = request(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      });
      const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
        inFlight.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        });
        inFlight.on('error', reject);
      });
      inFlight.write(body.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      inFlight.end(body.slice(10));
      const answer = await answered;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({ data: { operationsHealth: { status: 'ok' } } });
      expect(await exited).toBe(0);
      expect(lines.map((line) => line.msg)).toContain('stopped');
      expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
      await expect(fetch(`${url}/api/v1/health/live`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
