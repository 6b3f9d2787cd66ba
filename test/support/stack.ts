import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UndeclaredAnswer } from '../../rest-facade/declared-errors.js';
import { loadConfig, type Config } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { startSystem, type System } from '../../server/system.js';
import { createTestDatabase } from './database.js';

export interface TestStack {
  readonly url: string;
  readonly config: Config;
  readonly system: System;
  readonly databaseUrl: string;
  /** Fetches a path of the stack. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Runs a GraphQL operation on `/graphql` and returns the parsed body. */
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: { data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } }>;
  /** Error answers of REST routes their contracts do not declare, so far (rest-facade/declared-errors.ts). */
  undeclaredErrors(): UndeclaredAnswer[];
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts the whole system on an ephemeral port against a fresh database on the
 * run's PostgreSQL server; `stop()` stops it and drops the database.
 */
export async function startStack(env: Record<string, string> = {}): Promise<TestStack> {
  const database = env.DATABASE_URL ? undefined : await createTestDatabase();
  const checks = mkdtempSync(join(tmpdir(), 'declared-errors-'));
  const declaredErrorsLog = join(checks, 'undeclared.jsonl');
  const config = loadConfig({
    QANTARA_CHECK_DECLARED_ERRORS: declaredErrorsLog,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DEMO_LIBRARY: 'false',
    // No bot challenge at registration unless a test asks for one (CHALLENGE=altcha or turnstile).
    CHALLENGE: 'off',
    DATABASE_URL: database?.url,
    ...env,
  });
  const system = await startSystem(config, createLogger(config.logLevel));
  const url = system.url;
  const stop = async () => {
    await system.stop();
    await database?.drop();
    rmSync(checks, { recursive: true, force: true });
  };
  return {
    url,
    config,
    system,
    databaseUrl: config.databaseUrl ?? system.databaseUrl ?? '',
    fetch: (path, init) => fetch(`${url}${path}`, init),
    undeclaredErrors: () =>
      existsSync(declaredErrorsLog)
        ? readFileSync(declaredErrorsLog, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as UndeclaredAnswer)
        : [],
    async graphql(query, variables, headers = {}) {
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: (await response.json()) as never };
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
