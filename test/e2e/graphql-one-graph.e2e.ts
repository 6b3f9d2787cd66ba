import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditServer } from 'graphql-http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { Actors } from '../support/actors.js';
import { AssetBuilder } from '../support/eam.js';
import { collect, wsClient } from '../support/research-ws.js';
import { settleSaga } from '../support/sagas.js';

/**
 * `/graphql` as a frontend team meets it: subscriptions in the schema it introspects and
 * downloads, a refused field that does not empty the response, no internal plumbing in the
 * public graph, GraphQL over HTTP as the spec and graphql-http's audits describe it, and
 * the explorer a browser gets at `GET /graphql`.
 */

let actors: Actors;
let browser: Browser | undefined;
beforeAll(async () => {
  actors = await Actors.start();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await actors?.stack.stop();
});

type GraphQLBody = {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
};

async function post(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await actors.stack.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLBody };
}

const bearer = (role: Parameters<Actors['act']>[0]) => ({ authorization: `Bearer ${actors.sessions.get(role)!.token}` });

const SUBSCRIPTION_INTROSPECTION = `{
  __schema {
    subscriptionType {
      name
      fields {
        name
        args(includeDeprecated: true) { name isDeprecated deprecationReason type { kind name ofType { name } } }
        type { kind ofType { name } }
      }
    }
    queryType { fields { name } }
  }
}`;

describe('subscriptions in the served schema', () => {
  it('lists sagaProgress and threadUpdated in HTTP introspection with their arguments and event types', async () => {
    const { status, body } = await post({ query: SUBSCRIPTION_INTROSPECTION });
    expect(status).toBe(200);
    const schema = body.data!.__schema as {
      subscriptionType: {
        name: string;
        fields: Array<{
          name: string;
          args: Array<{
            name: string;
            isDeprecated: boolean;
            deprecationReason: string | null;
            type: { kind: string; name: string | null };
          }>;
          type: { kind: string; ofType: { name: string } };
        }>;
      };
    };
    expect(schema.subscriptionType.name).toBe('Subscription');
    const fields = new Map(schema.subscriptionType.fields.map((field) => [field.name, field]));
    expect([...fields.keys()].sort()).toEqual(['sagaProgress', 'threadUpdated']);
    expect(fields.get('sagaProgress')!.type).toEqual({ kind: 'NON_NULL', ofType: { name: 'SagaProgressEvent' } });
    expect(fields.get('threadUpdated')!.type).toEqual({ kind: 'NON_NULL', ofType: { name: 'ResearchThreadEvent' } });
    const args = (name: string) => fields.get(name)!.args.map((arg) => [arg.name, arg.isDeprecated]);
    expect(args('sagaProgress')).toEqual([
      ['sagaId', false],
      ['afterSequence', false],
    ]);
    expect(args('threadUpdated')).toEqual([
      ['threadId', false],
      ['afterSequence', false],
      ['after', true],
    ]);
    expect(fields.get('threadUpdated')!.args.find((arg) => arg.name === 'after')!.deprecationReason).toBe('Use `afterSequence`.');
  });

  it('serves the composed SDL at GET /graphql/schema.graphql: subscriptions in, internal fields out', async () => {
    const response = await actors.stack.fetch('/graphql/schema.graphql');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const sdl = await response.text();
    const subscriptionType = sdl.slice(sdl.indexOf('type Subscription {'));
    expect(subscriptionType).toMatch(/^type Subscription \{\n/);
    expect(subscriptionType.slice(0, subscriptionType.indexOf('\n}\n'))).toMatch(/\n {2}sagaProgress\(/);
    expect(sdl).toMatch(/threadUpdated\([^)]*afterSequence: Int/s);
    expect(sdl).toContain('libraryPlans');
    expect(sdl).not.toMatch(/InputRefusal|CallerCheck|join__|@inaccessible/);
  });

  it('answers introspection over graphql-ws too, with the same subscriptions, and still no other query', async () => {
    const client = wsClient(actors.stack, bearer('Engineer'));
    try {
      type Introspected = { __schema: { subscriptionType: { fields: Array<{ name: string }> } } };
      const [answer] = await collect<Introspected>(client, '{ __schema { subscriptionType { fields { name } } } }', {}, () => true);
      expect(answer!.__schema.subscriptionType.fields.map((field) => field.name).sort()).toEqual(['sagaProgress', 'threadUpdated']);
      const refused = await collect(client, '{ __typename iamMe { user { email } } }', {}, () => true).catch(
        (error: { errors?: Array<{ message: string }> }) => error.errors,
      );
      expect(refused).toEqual([expect.objectContaining({ message: expect.stringContaining('only subscriptions') })]);
    } finally {
      await client.dispose();
    }
  });

  it('refuses a subscription sent over HTTP with a 400 that points to graphql-ws', async () => {
    const { status, body } = await post(
      { query: 'subscription { sagaProgress(sagaId: "00000000-0000-0000-0000-000000000000") { sequence } }' },
      bearer('Engineer'),
    );
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/graphql-ws/);
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('partial results', () => {
  it('answers the public field beside one refused for a missing key: 200, the data, and null with the error at the refused path', async () => {
    const { status, body } = await post({ query: '{ libraryPlans { name } libraryMe { usedToday } }' });
    expect(status).toBe(200);
    expect((body.data!.libraryPlans as unknown[]).length).toBeGreaterThan(0);
    expect(body.data!.libraryMe).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]).toMatchObject({ path: ['libraryMe'], extensions: { code: 'missing_api_key' } });
  });

  it('answers the same for an invalid key', async () => {
    const { status, body } = await post({ query: '{ libraryPlans { name } libraryMe { usedToday } }' }, { 'x-api-key': 'lk_not_a_key' });
    expect(status).toBe(200);
    expect(body.data!.libraryPlans).not.toBeNull();
    expect(body.data!.libraryMe).toBeNull();
    expect(body.errors![0]!.path).toEqual(['libraryMe']);
    expect(body.errors![0]!.extensions?.http).toMatchObject({ status: 401 });
  });

  it('answers the allowed field beside one the caller may not call: forbidden at its path only', async () => {
    const { status, body } = await post({ query: '{ iamMe { user { email } } coreSagaQueues { queues { name } } }' }, bearer('Engineer'));
    expect(status).toBe(200);
    expect(body.data!.iamMe).toMatchObject({ user: { email: expect.any(String) } });
    expect(body.data!.coreSagaQueues).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]!.path).toEqual(['coreSagaQueues']);
    expect(body.errors![0]!.extensions?.http).toMatchObject({ status: 403 });
  });

  it('keeps the error’s status when no field could answer', async () => {
    const { status, body } = await post({ query: '{ libraryMe { usedToday } }' });
    expect(status).toBe(401);
    expect(body.errors![0]!.extensions?.code).toBe('missing_api_key');
  });
});

describe('a public graph without plumbing', () => {
  it('introspection shows none of the edge’s internal fields, and asking for one is a validation error', async () => {
    const { body } = await post({ query: SUBSCRIPTION_INTROSPECTION });
    const names = (body.data!.__schema as { queryType: { fields: Array<{ name: string }> } }).queryType.fields.map((field) => field.name);
    expect(names).toContain('libraryPlans');
    expect(names.filter((name) => /InputRefusal|CallerCheck/.test(name))).toEqual([]);
    for (const query of [
      '{ libraryCallerCheck(operation: "libraryMe") }',
      '{ operationsInputRefusal(operation: "iamMe", issues: []) }',
      '{ researchCallerCheck(operation: "researchPing") }',
    ]) {
      const refused = await post({ query }, bearer('Engineer'));
      expect(refused.status, query).toBe(400);
      expect(refused.body.errors?.[0]?.extensions?.code, query).toBe('GRAPHQL_VALIDATION_FAILED');
    }
  });

  it('still has the facade refuse invalid input through the owning service: 401 before 422, as documented', async () => {
    const anonymous = await actors.stack.fetch('/api/v1/eam/asset-classes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(anonymous.status).toBe(401);
    const invalid = await actors.act('Engineer', 'POST', '/api/v1/eam/asset-classes', { code: '' });
    expect(invalid.status).toBe(422);
  });
});

/** A client following the README: a GET carries `apollo-require-preflight` (CSRF prevention). */
const preflightFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  if ((init?.method ?? 'GET').toUpperCase() === 'GET') headers.set('apollo-require-preflight', 'true');
  return fetch(input, { ...init, headers });
};

describe('GraphQL over HTTP', () => {
  it('passes every graphql-http server audit with no error and no warning', async () => {
    const results = await auditServer({ url: `${actors.stack.url}/graphql`, fetchFn: preflightFetch });
    expect(results.length).toBeGreaterThan(40);
    const notOk = results.filter((result) => result.status !== 'ok').map((result) => `${result.id} ${result.name}: ${result.status}`);
    expect(notOk).toEqual([]);
  });

  it('answers a query over GET and refuses a mutation over GET with 405', async () => {
    const query = await preflightFetch(`${actors.stack.url}/graphql?query=${encodeURIComponent('{ libraryPlans { name } }')}`);
    expect(query.status).toBe(200);
    expect(((await query.json()) as GraphQLBody).data?.libraryPlans).toBeDefined();
    const mutation = await preflightFetch(`${actors.stack.url}/graphql?query=${encodeURIComponent('mutation { iamLogout { revoked } }')}`, {
      headers: bearer('Engineer'),
    });
    expect(mutation.status).toBe(405);
  });

  it('refuses as a possible CSRF a GET without a preflight header and a form post', async () => {
    const get = await fetch(`${actors.stack.url}/graphql?query=${encodeURIComponent('{ libraryPlans { name } }')}`);
    expect(get.status).toBe(400);
    expect(await get.text()).toMatch(/apollo-require-preflight/);
    const form = await actors.stack.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `query=${encodeURIComponent('{ libraryPlans { name } }')}`,
    });
    expect(form.status).toBeGreaterThanOrEqual(400);
    expect(form.status).toBeLessThan(500);
  });

  it('answers a document of two operations without operationName with a 400 GraphQL error', async () => {
    const { status, body } = await post({ query: 'query A { libraryPlans { name } } query B { libraryHealth { status } }' });
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/operation ?name/i);
    expect(body.errors?.[0]?.extensions?.code).toBeDefined();
  });

  it('answers request errors with 200 under application/json and 400 under application/graphql-response+json', async () => {
    const asJson = await post({ query: '{ libraryPlans { nope } }' }, { accept: 'application/json' });
    expect(asJson.status).toBe(200);
    expect(asJson.headers.get('content-type')).toMatch(/^application\/json/);
    expect(asJson.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const asGraphQLResponse = await post({ query: '{ libraryPlans { nope } }' }, { accept: 'application/graphql-response+json' });
    expect(asGraphQLResponse.status).toBe(400);
    expect(asGraphQLResponse.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
  });
});

/** A finished asset-decommission saga of the demo organization: its progress events are in the feed. */
let assets: AssetBuilder | undefined;

async function finishedSaga(): Promise<string> {
  assets ??= new AssetBuilder(actors, {
    prefix: 'EX',
    first: 10001,
    assetClass: { code: 'EXPL', name: 'Explorer class' },
    defaults: { name: 'Explorer rig' },
  });
  const asset = await assets.create();
  const started = await actors.act('Engineer', 'POST', '/api/v1/eam/sagas/asset-decommission', {
    assetId: asset.id,
    coApprovedBy: actors.userId('CEO'),
    reason: 'seen in the explorer',
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await settleSaga(actors, started.body.sagaId);
  return started.body.sagaId as string;
}

/** CodeMirror 5, as GraphiQL's editors are: the instance hangs on its wrapper element. */
type CodeMirrorHost = { CodeMirror: { setValue(text: string): void; getValue(): string } };
type BrowserDocument = { document: { querySelector(selector: string): CodeMirrorHost } };

/** The text of one of GraphiQL's editors. */
const editor = (page: Page, selector: string) => ({
  set: (text: string) =>
    page.evaluate(([css, value]) => (globalThis as unknown as BrowserDocument).document.querySelector(css).CodeMirror.setValue(value), [
      selector,
      text,
    ] as const),
  get: () => page.evaluate((css) => (globalThis as unknown as BrowserDocument).document.querySelector(css).CodeMirror.getValue(), selector),
});

describe('the explorer at GET /graphql', () => {
  it('serves GraphiQL from this process under a strict CSP: docs, a headers editor, a query over HTTP and sagaProgress over graphql-ws', async () => {
    const sagaId = await finishedSaga();
    const page_ = await actors.stack.fetch('/graphql', { headers: { accept: 'text/html' } });
    expect(page_.status).toBe(200);
    const csp = page_.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = await page_.text();
    expect(html).not.toMatch(/https?:\/\//);

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const requested: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('request', (request) => requested.push(request.url()));
    page.on('websocket', (socket) => requested.push(socket.url()));
    await page.goto(`${actors.stack.url}/graphql`);
    await page.locator('.graphiql-container').waitFor({ timeout: 60_000 });

    // Schema docs: the Subscription root is there with sagaProgress.
    await page.getByRole('button', { name: /show documentation explorer/i }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Subscription', { exact: false }).first().click();
    await page.locator('.graphiql-doc-explorer').getByText('sagaProgress').first().waitFor();

    // The headers editor carries the access token, to HTTP and to graphql-ws alike.
    await page.getByRole('button', { name: /^headers$/i }).click();
    const token = actors.sessions.get('Engineer')!.token;
    await editor(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror').set(
      JSON.stringify({ Authorization: `Bearer ${token}` }),
    );

    const query = editor(page, '.graphiql-query-editor .CodeMirror');
    const result = editor(page, '.result-window .CodeMirror');
    await query.set('{ libraryPlans { name } iamMe { user { email } } }');
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(result.get, { timeout: 15_000 }).toContain('"libraryPlans"');
    expect(JSON.parse(await result.get()).data.iamMe.user.email).toEqual(expect.any(String));

    await query.set(`subscription { sagaProgress(sagaId: "${sagaId}") { sequence sagaId status step } }`);
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(result.get, { timeout: 15_000 }).toContain('"sagaProgress"');
    const event = JSON.parse(await result.get()).data.sagaProgress;
    expect(event).toMatchObject({ sagaId, sequence: expect.any(Number), status: expect.any(String) });

    const origin = new URL(actors.stack.url).host;
    expect(requested.filter((url) => new URL(url).host !== origin)).toEqual([]);
    expect(requested.some((url) => url.startsWith('ws://'))).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('the README’s GraphQL section', () => {
  it('has a graphql-ws client for sagaProgress that works as pasted: it prints the saga’s events in order', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const block = /<!-- sagaProgress client[^>]*-->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    expect(block!.trim().split('\n').length).toBeLessThanOrEqual(10);
    const sagaId = await finishedSaga();
    // Run as pasted into an ES module next to an installed graphql-ws; stopped once it printed the five events.
    const child = spawn(process.execPath, ['--input-type=module', '--eval', block!], {
      cwd: root,
      env: {
        ...process.env,
        QANTARA_WS: `${actors.stack.url.replace(/^http/, 'ws')}/graphql`,
        TOKEN: actors.sessions.get('Engineer')!.token,
        SAGA_ID: sagaId,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = await new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no five events in time: ${stdout}${stderr}`)), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const complete = stdout.split('\n').filter(Boolean);
        if (complete.length >= 5) {
          clearTimeout(timer);
          resolve(complete);
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the client exited (${code}): ${stdout}${stderr}`));
      });
    }).finally(() => child.kill());
    const events = lines.map((line) => JSON.parse(line) as { sequence: number; step: string | null; status: string });
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(events.at(-1)).toMatchObject({ step: null, status: 'completed' });
  }, 90_000);
});
