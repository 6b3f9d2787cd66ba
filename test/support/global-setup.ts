import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../runtime/embedded-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the PostgreSQL server the suites create their databases on. */
    postgresUrl: string;
  }
}

let server: EmbeddedDatabase | undefined;
let dir: string | undefined;

/** One embedded PostgreSQL server for the whole run; each suite makes its own database on it. */
export async function setup(project: TestProject): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'qantara-test-pg-'));
  server = await startEmbeddedPostgres(join(dir, 'pg'));
  project.provide('postgresUrl', server.url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}
