import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { startSystem, type System } from '../../server/system.js';
import { createTestDatabase } from '../support/database.js';

/**
 * `GRAPHQL_DEDUPLICATE`: identical queries in flight at once reach a subgraph as one call.
 * The library subgraph runs over HTTP behind a proxy of this test, which counts what the
 * gateway sends and holds it until the test lets it through, so requests are surely in flight
 * together: queries are let through once the gateway reports them merged, mutations and
 * requests with other credentials once as many calls as requests have arrived.
 */

interface Held {
  readonly body: string;
  readonly authorization: string | undefined;
  release(): void;
}

/** Forwards to `target`, holding every request until `releaseAll`; `seen` is every request the gateway sent. */
class HoldingProxy {
  readonly seen: Held[] = [];
  private readonly waiting: Held[] = [];
  private server: Server | undefined;

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/graphql`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    await new Promise<void>((release) => {
      const held = { body, authorization: request.headers.authorization, release };
      this.seen.push(held);
      this.waiting.push(held);
    });
    const headers = Object.fromEntries(
      Object.entries(request.headers).flatMap(([name, value]) =>
        typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name) ? [[name, value]] : [],
      ),
    );
    const answer = await fetch(this.target, { method: 'POST', headers, body });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    response.end(await answer.text());
  }

  /** Requests whose body contains `text`, sent since the test began. */
  count(text: string): number {
    return this.seen.filter((held) => held.body.includes(text)).length;
  }

  releaseAll(): void {
    for (const held of this.waiting.splice(0)) held.release();
  }

  async stop(): Promise<void> {
    this.releaseAll();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Polls `condition` until it holds (a few seconds at most under load), then returns; throws with `what` otherwise. */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

const started: System[] = [];
let proxy: HoldingProxy;
let gateway: System;
let plainGateway: System;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  const logger = createLogger('silent');
  const base = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: database.url, DEMO_LIBRARY: 'false', CHALLENGE: 'off' };
  const start = async (env: Record<string, string>) => {
    const system = await startSystem(loadConfig({ ...base, ...env }), logger);
    started.push(system);
    return system;
  };
  const urls: Record<string, string> = {};
  for (const name of ['library', 'research', 'operations'])
    urls[`SUBGRAPH_${name.toUpperCase()}_URL`] = `${(await start({ ROLE: `subgraph:${name}` })).url}/graphql`;
  proxy = new HoldingProxy(urls.SUBGRAPH_LIBRARY_URL!);
  const library = await proxy.start();
  gateway = await start({ ROLE: 'gateway', ...urls, SUBGRAPH_LIBRARY_URL: library });
  plainGateway = await start({ ROLE: 'gateway', ...urls, SUBGRAPH_LIBRARY_URL: library, GRAPHQL_DEDUPLICATE: 'false' });
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  for (const system of started.reverse()) await system.stop();
  await drop?.();
});

async function post(system: System, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${system.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: unknown[] } };
}

async function merged(system: System): Promise<number> {
  const metric = await system.metrics.subgraphFetchesMerged.get();
  return metric.values.find((value) => value.labels.subgraph === 'library')?.value ?? 0;
}

describe('merging identical subgraph queries in flight', () => {
  it('sends five identical concurrent queries to the subgraph as one call and answers all five with its data', async () => {
    const query = '{ libraryPlans { name rpm rpd } }';
    const before = await merged(gateway);
    const answers = Promise.all(Array.from({ length: 5 }, () => post(gateway, query, { authorization: 'Bearer same-caller' })));
    await until(async () => (await merged(gateway)) - before === 4, 'four queries joined the first');
    proxy.releaseAll();
    const results = await answers;
    expect(proxy.count('libraryPlans')).toBe(1);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200]);
    const plans = (results[0]!.body.data as { libraryPlans: Array<{ name: string }> }).libraryPlans;
    expect(plans.length).toBeGreaterThan(0);
    for (const result of results) expect(result.body).toEqual(results[0]!.body);
  });

  it('never merges mutations: three identical concurrent registrations are three subgraph calls', async () => {
    const query = 'mutation { libraryRegister(email: "twice@example.org") { key } }';
    const answers = Promise.all(Array.from({ length: 3 }, () => post(gateway, query)));
    await until(() => proxy.count('libraryRegister') === 3, 'three registrations reached the subgraph');
    proxy.releaseAll();
    await answers;
    expect(proxy.count('libraryRegister')).toBe(3);
  });

  it('does not merge the same query sent with different credentials', async () => {
    const query = '{ libraryPlans { name maxLimit } }';
    const before = await merged(gateway);
    const answers = Promise.all([
      post(gateway, query, { authorization: 'Bearer first-caller' }),
      post(gateway, query, { authorization: 'Bearer second-caller' }),
    ]);
    await until(() => proxy.count('maxLimit') === 2, 'both queries reached the subgraph');
    proxy.releaseAll();
    await answers;
    const authorizations = proxy.seen.filter((held) => held.body.includes('maxLimit')).map((held) => held.authorization);
    expect(authorizations.sort()).toEqual(['Bearer first-caller', 'Bearer second-caller']);
    expect((await merged(gateway)) - before).toBe(0);
  });

  it('sends every query with GRAPHQL_DEDUPLICATE=false', async () => {
    const query = '{ libraryPlans { name description } }';
    const answers = Promise.all(Array.from({ length: 3 }, () => post(plainGateway, query, { authorization: 'Bearer same-caller' })));
    await until(() => proxy.count('description') === 3, 'three queries reached the subgraph');
    proxy.releaseAll();
    const results = await answers;
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    expect(await merged(plainGateway)).toBe(0);
  });
});
