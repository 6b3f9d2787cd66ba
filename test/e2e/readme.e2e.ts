import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { Deployment, type RoleProcess } from '../support/processes.js';

/**
 * README as a walkthrough that cannot rot: its blocks fenced as `sh readme-test` run in order
 * in one real `bash -euo pipefail`, as a reader pastes them into a second terminal, against a
 * server started with the settings its `sh readme-server` block exports.
 */

const ROOT = join(import.meta.dirname, '..', '..');

interface Block {
  /** Line of the opening fence in README.md. */
  readonly line: number;
  readonly code: string;
}

/** The fenced blocks whose info string is `sh <tag>`, in file order. */
function blocks(markdown: string, tag: string): Block[] {
  const found: Block[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (lines[index]!.trim() !== `\`\`\`sh ${tag}`) continue;
    const end = lines.findIndex((line, at) => at > index && line.trim() === '```');
    if (end < 0) throw new Error(`README.md line ${index + 1}: block not closed`);
    found.push({ line: index + 1, code: lines.slice(index + 1, end).join('\n') });
    index = end;
  }
  return found;
}

/** `export NAME=value …` lines of the server block: what the reader sets before `./qantara start`. */
function exported(block: Block): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of block.code.split('\n')) {
    if (!line.startsWith('export ')) continue;
    for (const pair of line.slice('export '.length).split('#')[0]!.trim().split(/\s+/)) {
      const [name, ...value] = pair.split('=');
      env[name!] = value.join('=');
    }
  }
  return env;
}

/** Runs a script in `bash -euo pipefail` from the repository root with a plain environment. */
async function bash(script: string, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'qantara-readme-'));
  const file = join(dir, 'walkthrough.sh');
  await writeFile(file, script);
  try {
    return await new Promise((resolve, reject) => {
      const env = Object.fromEntries(
        ['PATH', 'HOME', 'LANG', 'TMPDIR'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
      );
      const child = spawn('bash', ['-euo', 'pipefail', file], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let readme: string;
beforeAll(async () => {
  readme = await readFile(join(ROOT, 'README.md'), 'utf8');
});

describe('README blocks', () => {
  it('mark one server block and runnable blocks in the library, research, MCP and operations sections', () => {
    expect(blocks(readme, 'readme-server')).toHaveLength(1);
    const sections = blocks(readme, 'readme-test').map((block) => {
      const heading = readme
        .split('\n')
        .slice(0, block.line)
        .findLast((line) => line.startsWith('## '));
      return heading;
    });
    for (const heading of [
      '## Quick start',
      '## Walkthrough: your first ten minutes',
      '## Research: workspaces, keys, credits, cases and runs',
      '## MCP: research and library for AI clients',
      '## Operations: sign-in, organizations, reference books',
      '## Operations: accounts, second factor, API keys',
      '## Operations: shift reports and their sagas',
    ])
      expect(sections).toContain(heading);
  });

  it('define a json function that prints a field and exits 1, showing the body, on an error answer or one that is not JSON', async () => {
    const [helper] = blocks(readme, 'readme-test');
    const cases = [
      `echo '{"key":"qk_live_x","nested":{"list":[{"id":7}]}}' | json key`,
      `echo '{"key":"qk_live_x","nested":{"list":[{"id":7}]}}' | json nested.list.0.id`,
      `echo '[{"code":"NORTH","id":"n"},{"code":"SOUTH","id":"s"}]' | json '$.find(o => o.code === "SOUTH").id'`,
      `echo '{"status":"up","error":{}}' | json status`,
    ];
    const ok = await bash(`${helper!.code}\n${cases.join('\n')}\n`, 20_000);
    expect(ok, ok.stderr).toMatchObject({ code: 0 });
    expect(ok.stdout.trim().split('\n')).toEqual(['qk_live_x', '7', 's', 'up']);
    const errors = [
      '{"error":{"message":"Invalid API key","type":"invalid_request_error","code":"invalid_api_key"}}',
      '{"error":"No such workspace","code":"not_found"}',
      '{"type":"about:blank","title":"Forbidden","status":403,"code":"ROLE_FORBIDDEN"}',
      '{"detail":"Not authenticated"}',
      '<html>Bad Gateway</html>',
      '{"other":1}',
    ];
    for (const body of errors) {
      const refused = await bash(`${helper!.code}\nKEY=$(echo '${body}' | json key)\necho "reached with $KEY"\n`, 20_000);
      expect(refused.code, body).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(body);
    }
  });
});

describe('README walkthrough', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let deployment: Deployment;
  let server: RoleProcess;
  beforeAll(async () => {
    database = await createTestDatabase();
    // The README's reader starts on the embedded database, where the demo data is on by default;
    // the test's server has a DATABASE_URL, so it asks for the same demo data explicitly.
    const embeddedDefaults = { DEMO_OPERATIONS: 'true', DEMO_OPERATIONS_RECORDS: 'true', DEMO_RESEARCH: 'true' };
    deployment = await Deployment.create(database.url, { ...embeddedDefaults, ...exported(blocks(readme, 'readme-server')[0]!) });
    server = (await deployment.start({ role: 'all' }))[0]!;
  }, 180_000);
  afterAll(async () => {
    await deployment?.stop();
    await database?.drop();
  });

  it('runs every readme-test block in order in bash -euo pipefail against a started server', async () => {
    const host = server.url.replace(/^http:\/\//, '');
    const script = blocks(readme, 'readme-test')
      .map((block) => `echo '### README.md line ${block.line}' >&2\n${block.code}`)
      .join('\n')
      .replaceAll('http://localhost:8080', server.url)
      .replaceAll('localhost:8080', host);
    const run = await bash(`${script}\n`, 150_000);
    expect(run.code, `${run.stderr.slice(-4000)}\n--- stdout ---\n${run.stdout.slice(-2000)}\n--- server ---\n${server.logs()}`).toBe(0);
    expect(run.stderr).not.toContain('json:');
    // What the walkthrough prints on its way: a key, imported books, an approved shift report.
    expect(run.stdout).toMatch(/^ok$/m);
    expect(run.stdout).toContain('adab-sample');
    expect(run.stdout).toMatch(/^saga [0-9a-f-]{36}: completed$/m);
    expect(run.stdout).toMatch(/^approved$/m);
  }, 170_000);
});
