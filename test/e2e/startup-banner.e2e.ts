import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleProcess } from '../support/processes.js';

interface Ready {
  msg: string;
  home: string;
  docs: Record<'library' | 'operations' | 'research', string>;
  graphql: string;
  console: string;
  demoSignIn?: { emails: string[]; password: string };
  demoResearchKey?: string;
}

/** `./qantara start` on embedded defaults: its own PostgreSQL, the demo data made at first start. */
let dir: string;
let server: RoleProcess;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qantara-banner-'));
  server = await RoleProcess.start({ role: 'all', name: 'banner', env: { DATA_DIR: dir, DATABASE_URL: '', DEMO_OPERATIONS: 'true' } });
  // `start()` resolves on `listening`; the banner follows it at once.
  await new Promise((resolve) => setTimeout(resolve, 200));
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function signIn(email: string): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/iam/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo-password' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('start-up banner', () => {
  it('right after `listening`, one info line names the entry points of the server it started and the demo sign-in', async () => {
    const listening = server.lines.findIndex((line) => line.includes('"msg":"listening"'));
    const ready = JSON.parse(server.lines[listening + 1]!) as Ready;
    expect(ready.msg).toBe('ready');
    expect(ready.home).toBe(`${server.url}/`);
    expect(ready.docs).toEqual({
      library: `${server.url}/docs`,
      operations: `${server.url}/api/v1/docs`,
      research: `${server.url}/research/docs`,
    });
    expect(ready.graphql).toBe(`${server.url}/graphql`);
    expect(ready.console).toBe(`${server.url}/app/`);
    expect(ready.demoSignIn?.emails).toContain('engineer@demo.qantara.local');
    expect(ready.demoResearchKey).toMatch(/printed once/);
    for (const url of [ready.home, ready.docs.library, ready.docs.operations, ready.console]) {
      expect((await fetch(url)).status, url).toBe(200);
    }
    expect((await fetch(ready.graphql, { headers: { accept: 'text/html' } })).status).toBe(200);
    // Every demo user named signs in.
    for (const email of ready.demoSignIn!.emails) await signIn(email);
  });

  it('on the embedded default, the demo Foreman finds a draft shift report with entries, ready to submit', async () => {
    const token = await signIn('foreman@demo.qantara.local');
    const reports = await fetch(`${server.url}/api/v1/prd/shift-reports`, { headers: { authorization: `Bearer ${token}` } });
    expect(reports.status).toBe(200);
    const { items } = (await reports.json()) as { items: Array<{ id: string; status: string }> };
    expect(items.map((report) => report.status)).toEqual(['draft']);
    const children = await fetch(`${server.url}/api/v1/prd/shift-reports/${items[0]!.id}/children`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await children.json()) as { assetUsages: unknown[] }).assetUsages).toHaveLength(2);
  });
});
