import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

describe('start-up banner', () => {
  it('right after `listening`, one info line names the entry points of the server it started and the demo sign-in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qantara-banner-'));
    const server = new RoleProcess({ role: 'all', name: 'banner', env: { DATA_DIR: dir, DATABASE_URL: '' } });
    try {
      await server.start();
      // `start()` resolves on `listening`; the banner follows it synchronously.
      await new Promise((resolve) => setTimeout(resolve, 200));
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
      // The demo users named sign in.
      const signIn = await fetch(`${server.url}/api/v1/iam/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ready.demoSignIn!.emails[0], password: 'demo-password' }),
      });
      expect(signIn.status).toBe(200);
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
