import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { startSystem, type System } from '../../server/system.js';
import { createTestDatabase } from '../support/database.js';
import { ADMIN_TOKEN, awayFromMinuteEdge, json } from '../support/library-keys.js';

/**
 * Two library subgraph instances over HTTP, each behind its own gateway, on one
 * database: the counters are PostgreSQL's, so limits hold across instances.
 */
const started: System[] = [];
const gateways: System[] = [];
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  const logger = createLogger('silent');
  const base = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: database.url, DEMO_LIBRARY: 'false', ADMIN_TOKEN };
  const start = async (env: Record<string, string>) => {
    const system = await startSystem(loadConfig({ ...base, ...env }), logger);
    started.push(system);
    return system;
  };
  const others: Record<string, string> = {};
  for (const name of ['research', 'operations'])
    others[`SUBGRAPH_${name.toUpperCase()}_URL`] = `${(await start({ ROLE: `subgraph:${name}` })).url}/graphql`;
  for (let instance = 0; instance < 2; instance += 1) {
    const library = await start({ ROLE: 'subgraph:library' });
    gateways.push(await start({ ROLE: 'gateway', SUBGRAPH_LIBRARY_URL: `${library.url}/graphql`, ...others }));
  }
});

afterAll(async () => {
  for (const system of started.reverse()) await system.stop();
  await drop?.();
});

describe('keys and limits across instances', () => {
  it('shares one minute window between two library instances: 10 calls pass, the 11th is refused', async () => {
    const created = await fetch(
      `${gateways[0]!.url}/admin/keys`,
      json({ email: 'spread@example.org', plan: 'free' }, { 'x-admin-token': ADMIN_TOKEN }),
    );
    const { key } = (await created.json()) as { key: string };
    await awayFromMinuteEdge();
    const statuses: number[] = [];
    for (let call = 0; call < 10; call += 1) {
      const response = await fetch(`${gateways[call % 2]!.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
      statuses.push(response.status);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(9 - call));
    }
    expect(statuses).toEqual(Array(10).fill(200));
    const refused = await fetch(`${gateways[1]!.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-quota-remaining')).toBe('290');
  });

  it('sees a suspension made through one instance on the next call through the other', async () => {
    const created = await fetch(
      `${gateways[1]!.url}/admin/keys`,
      json({ email: 'moved@example.org', plan: 'pro' }, { 'x-admin-token': ADMIN_TOKEN }),
    );
    const { id, key } = (await created.json()) as { id: number; key: string };
    expect((await fetch(`${gateways[0]!.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await fetch(`${gateways[1]!.url}/admin/keys/${id}/status`, json({ status: 'suspended' }, { 'x-admin-token': ADMIN_TOKEN }));
    const refused = await fetch(`${gateways[0]!.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('key_suspended');
  });

  it('counts registrations by the socket address the gateway saw, whatever x-client-ip a client sends', async () => {
    const register = (email: string, gateway: System) =>
      fetch(`${gateway.url}/v1/register`, json({ email }, { 'x-client-ip': '192.0.2.99' }));
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await register(`r${attempt}@example.org`, gateways[attempt % 2]!)).status).toBe(201);
    const refused = await register('r5@example.org', gateways[0]!);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'registration_limit_exceeded', param: null } });
    // A client-sent x-client-ip is replaced by the socket's address, so another value does not help.
    const forged = await fetch(`${gateways[1]!.url}/v1/register`, json({ email: 'r6@example.org' }, { 'x-client-ip': '198.51.100.1' }));
    expect(forged.status).toBe(429);
  });
});
