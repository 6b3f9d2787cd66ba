import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/** Drives `url` with autocannon from this process (the target runs in another). */
export async function load(
  url: string,
  options: { connections?: number; duration?: number; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 32,
    duration: options.duration ?? 8,
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.headers,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Starts a node entry point with tsx and waits for its first stdout line that is JSON. */
export async function startProcess<T>(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<T>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        resolve(JSON.parse(line) as T);
      } catch {
        // wait for the JSON line
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  return { child, info };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export const ROOT = join(import.meta.dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'openiti');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'library');

/** The real OpenITI corpus when it is beside the project, else the test fixtures. */
export function corpusFiles(): string[] {
  if (existsSync(CORPUS))
    return readdirSync(CORPUS)
      .filter((name) => /^\d{4}/.test(name))
      .map((name) => join(CORPUS, name));
  return [join(FIXTURES, 'baghdad-excerpt-ara1'), join(FIXTURES, 'pages.jsonl')];
}

/** Starts `main.ts` in its own process and waits for its `listening` log line. */
export async function startServer(env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"msg":"listening"')) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`main.ts exited with ${code}`)));
  });
  return { url, stop: () => stopProcess(child) };
}
