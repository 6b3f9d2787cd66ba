import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackIssuer } from '../support/jwt-issuer.js';
import { demoEmail, OPERATIONS_ENV } from '../support/operations.js';
import { allComplete, call, createWorkspace, READY_IDEA, readUntil, runsSettled, startResearchStack } from '../support/research.js';
import { startFakeStripe, type FakeStripe } from '../support/research-upstreams.js';
import { collect, connectOutcome, wsClient } from '../support/research-ws.js';
import type { TestStack } from '../support/stack.js';
import { signInWithConsoleClient, type SignedIn } from '../support/workspace-sign-in.js';

/**
 * The research workspace API (`/api/chat/…`) over real HTTP: OAuth 2.0 bearer access tokens
 * from our OpenID provider (a real code + PKCE sign-in with the console's client) or from a
 * second configured issuer, verified against the issuer's JWKS; 401 with the protected
 * resource metadata otherwise; the first call makes the person's workspace; every route
 * serves the same operations as the key API, in that workspace only.
 */

const WELCOME = 40;
let stack: TestStack;
let stripe: FakeStripe;
let second: LoopbackIssuer;
let unknown: LoopbackIssuer;
let engineer: SignedIn;
let ceo: SignedIn;
let db: pg.Client;

beforeAll(async () => {
  stripe = await startFakeStripe();
  second = await LoopbackIssuer.start();
  unknown = await LoopbackIssuer.start();
  stack = await startResearchStack({
    ...OPERATIONS_ENV,
    RESEARCH_WELCOME_CREDITS: String(WELCOME),
    WORKSPACE_ISSUERS: JSON.stringify([{ issuer: second.issuer }]),
    STRIPE_SECRET_KEY: 'sk_test_workspace',
    STRIPE_API_URL: stripe.url,
  });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  engineer = await signInWithConsoleClient(stack, demoEmail('Engineer'));
  ceo = await signInWithConsoleClient(stack, demoEmail('CEO'));
});
afterAll(async () => {
  await db?.end();
  await stack?.stop();
  await Promise.all([stripe?.close(), second?.stop(), unknown?.stop()]);
});

const workspacesOf = async (issuer: string, subject: string) =>
  (
    await db.query<{ id: string; kind: string }>('select id, kind from research.workspace where owner_issuer = $1 and owner_subject = $2', [
      issuer,
      subject,
    ])
  ).rows;

describe('without a valid access token', () => {
  const metadata = () => `Bearer resource_metadata="${stack.url}/.well-known/oauth-protected-resource/api/chat"`;

  it('answers 401 with WWW-Authenticate pointing to the protected resource metadata, before reading the input', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/chat/threads'],
      ['POST', '/api/chat/threads', { message: '' }],
      ['GET', '/api/chat/threads/thread_x'],
      ['POST', '/api/chat/threads/thread_x/messages', { message: 'hi' }],
      ['POST', '/api/chat/threads/thread_x/research-runs', {}],
      ['GET', '/api/chat/billing'],
      ['GET', '/api/chat/api-keys'],
    ] as const) {
      const answer = await call(stack, null, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(metadata());
      expect(answer.body).toEqual({ error: expect.any(String), code: 'missing_access_token' });
    }
  });

  it('says invalid_token for a token it refuses: garbage, a research key, an ID token, an expired or foreign-audience token, an unknown issuer', async () => {
    const admin = await createWorkspace(stack, 'keys are not tokens');
    const refused = [
      'not-a-jwt',
      admin.adminKey,
      engineer.idToken,
      await second.accessToken('someone', `${stack.url}/api/chat`, { expiresIn: Math.floor(Date.now() / 1000) - 120 }),
      await second.accessToken('someone', 'https://elsewhere.example.org/api'),
      await unknown.accessToken('someone', `${stack.url}/api/chat`),
    ];
    for (const token of refused) {
      const answer = await call(stack, token, 'GET', '/api/chat/threads');
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('invalid_access_token');
      expect(answer.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", resource_metadata="${stack.url}/.well-known/oauth-protected-resource/api/chat"`,
      );
    }
    // The key API takes keys only, never access tokens.
    expect((await call(stack, engineer.accessToken, 'GET', '/v1/chat/threads')).body.code).toBe('invalid_api_key');
  });
});

describe('a person signed in at our provider', () => {
  it('gets a workspace with their first call, keyed by issuer and subject, with the welcome credits', async () => {
    const issuer = `${stack.url}/oidc`;
    const workspace = await call(stack, engineer.accessToken, 'GET', '/api/chat/workspace');
    expect(workspace.status).toBe(200);
    expect(workspace.body).toEqual({ id: expect.stringMatching(/^ws_/), name: expect.any(String), createdAt: expect.any(String) });
    expect(await workspacesOf(issuer, engineer.subject)).toEqual([{ id: workspace.body.id, kind: 'user' }]);
    const billing = await call(stack, engineer.accessToken, 'GET', '/api/chat/billing');
    expect(billing.body).toMatchObject({ creditBalance: WELCOME, topUpEndpoint: `${stack.url}/api/chat/billing/top-ups` });
    expect((await call(stack, engineer.accessToken, 'GET', '/api/chat/workspace')).body.id).toBe(workspace.body.id);
  });

  it('makes one workspace however many first calls arrive at once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(stack, ceo.accessToken, 'GET', '/api/chat/threads')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await workspacesOf(`${stack.url}/oidc`, ceo.subject)).toHaveLength(1);
  });

  it('starts a case, lists it, reads it, adds to it, and starts or reuses research — never started by chat', async () => {
    const token = engineer.accessToken;
    const created = await call(stack, token, 'POST', '/api/chat/threads', { message: READY_IDEA });
    expect(created.status).toBe(202);
    expect(created.body.assistantMessage).toMatchObject({ role: 'assistant', status: 'pending' });
    expect(created.body.userMessage).toMatchObject({ role: 'user', status: 'complete', content: READY_IDEA });
    const threadId = created.body.thread.id as string;

    const listed = await call(stack, token, 'GET', '/api/chat/threads?limit=10');
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(threadId);
    const ready = await readUntil(stack, token, threadId, allComplete, 30_000, '/api/chat/threads');
    expect(ready.gapAssessment.readinessStatus).toBe('ready');
    expect(ready.runs).toEqual([]);

    const appended = await call(stack, token, 'POST', `/api/chat/threads/${threadId}/messages`, { message: 'Competitors: Rover, Wag' });
    expect(appended.status).toBe(202);
    expect(appended.body.thread.messageCount).toBe(4);
    await readUntil(stack, token, threadId, allComplete, 30_000, '/api/chat/threads');

    const started = await call(stack, token, 'POST', `/api/chat/threads/${threadId}/research-runs`, {});
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ reused: false, runId: expect.stringMatching(/^run_/), thread: { id: threadId } });
    const done = await readUntil(stack, token, threadId, runsSettled, 30_000, '/api/chat/threads');
    expect(done.runs[0].status).toBe('completed');
    expect(done.thread.reports).toEqual([expect.objectContaining({ runId: started.body.runId, summaryText: expect.any(String) })]);
    const again = await call(stack, token, 'POST', `/api/chat/threads/${threadId}/research-runs`, { force: false });
    expect(again.status).toBe(200);
    expect(again.body.reused).toBe(true);
    // 2 turns and one run, all served by the offline rules (no LLM here): free.
    expect((await call(stack, token, 'GET', '/api/chat/billing')).body.creditBalance).toBe(WELCOME);
  });

  it('answers 404 for another person’s case, exactly as for a missing one', async () => {
    const theirs = await call(stack, engineer.accessToken, 'POST', '/api/chat/threads', { message: 'Idea: a private idea' });
    const threadId = theirs.body.thread.id as string;
    for (const [method, path, body] of [
      ['GET', `/api/chat/threads/${threadId}`],
      ['POST', `/api/chat/threads/${threadId}/messages`, { message: 'mine now?' }],
      ['POST', `/api/chat/threads/${threadId}/research-runs`, {}],
    ] as const) {
      const answer = await call(stack, ceo.accessToken, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code).toBe('thread_not_found');
      expect((await call(stack, ceo.accessToken, method, path.replace(threadId, 'thread_missing'), body)).body).toEqual(answer.body);
    }
    const list = await call(stack, ceo.accessToken, 'GET', '/api/chat/threads');
    expect(list.body.items.map((item: { id: string }) => item.id)).not.toContain(threadId);
  });

  it('refuses bad input as the key API does, after authenticating', async () => {
    const empty = await call(stack, ceo.accessToken, 'POST', '/api/chat/threads', { message: '   ' });
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'message' })] });
    const scopeless = await call(stack, ceo.accessToken, 'POST', '/api/chat/api-keys', { name: 'none', scopes: [] });
    expect(scopeless.status).toBe(422);
  });

  it('manages the workspace’s keys: created with explicit scopes and the secret once, rotated, revoked', async () => {
    const token = engineer.accessToken;
    const created = await call(stack, token, 'POST', '/api/chat/api-keys', { name: 'reader', scopes: ['threads_read'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({ name: 'reader', mode: 'live', scopes: ['threads_read'], status: 'active' });
    const secret = created.body.key as string;
    expect(secret).toMatch(/^rk_live_/);
    // The key reads the same workspace's cases: one workspace, two ways in.
    const viaKey = await call(stack, secret, 'GET', '/v1/chat/threads');
    const viaToken = await call(stack, token, 'GET', '/api/chat/threads');
    expect(viaKey.body.items.map((item: { id: string }) => item.id)).toEqual(viaToken.body.items.map((item: { id: string }) => item.id));
    expect((await call(stack, secret, 'POST', '/v1/chat/threads', { message: 'no scope' })).body.code).toBe('insufficient_scope');

    const listed = await call(stack, token, 'GET', '/api/chat/api-keys');
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const rotated = await call(stack, token, 'POST', `/api/chat/api-keys/${created.body.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.key).not.toBe(secret);
    expect((await call(stack, secret, 'GET', '/v1/chat/threads')).status).toBe(401);
    const revoked = await call(stack, token, 'POST', `/api/chat/api-keys/${created.body.id}/revoke`);
    expect(revoked.body).toMatchObject({ id: created.body.id, status: 'revoked' });
    expect((await call(stack, rotated.body.key, 'GET', '/v1/chat/threads')).body.code).toBe('api_key_revoked');
    expect((await call(stack, ceo.accessToken, 'POST', `/api/chat/api-keys/${created.body.id}/revoke`)).body.code).toBe(
      'api_key_not_found',
    );
  });

  it('starts a top-up through hosted checkout for their workspace', async () => {
    const workspace = await call(stack, ceo.accessToken, 'GET', '/api/chat/workspace');
    const topUp = await call(stack, ceo.accessToken, 'POST', '/api/chat/billing/top-ups', {
      usdQuantity: 10,
      successUrl: `${stack.url}/app/#/credits`,
      cancelUrl: `${stack.url}/app/#/credits`,
    });
    expect(topUp.status).toBe(201);
    expect(topUp.body).toMatchObject({ sandbox: false, usdQuantity: 10, creditQuantity: 100, url: expect.stringMatching(/^https:/) });
    expect(stripe.sessions.at(-1)!.form.get('metadata[workspaceId]')).toBe(workspace.body.id);
  });

  it('watches their own case live over graphql-ws with the access token, and no one else’s', async () => {
    expect(await connectOutcome(stack, { authorization: `Bearer ${ceo.accessToken}` })).toBe('ack');
    expect(await connectOutcome(stack, { authorization: 'Bearer not-a-token' })).toBe(4403);
    const created = await call(stack, ceo.accessToken, 'POST', '/api/chat/threads', { message: 'Idea: shared rides to the airport' });
    const threadId = created.body.thread.id as string;
    const client = wsClient(stack, { authorization: `Bearer ${ceo.accessToken}` });
    try {
      const events = await collect<{ threadUpdated: { sequence: number; type: string } }>(
        client,
        'subscription ($threadId: String!) { threadUpdated(threadId: $threadId) { sequence type } }',
        { threadId },
        (seen) => seen.some((event) => event.threadUpdated.type === 'assistant_reply_completed'),
      );
      expect(events[0]!.threadUpdated.sequence).toBe(1);
      const intruder = wsClient(stack, { authorization: `Bearer ${engineer.accessToken}` });
      try {
        await expect(
          collect(
            intruder,
            'subscription ($threadId: String!) { threadUpdated(threadId: $threadId) { sequence } }',
            { threadId },
            () => true,
          ),
        ).rejects.toMatchObject({ message: 'No such case in this workspace.' });
      } finally {
        await intruder.dispose();
      }
    } finally {
      await client.dispose();
    }
  });

  it('is the same operation on GraphQL, with the access token', async () => {
    const answer = await stack.graphql('{ researchWorkspace { id } researchWorkspaceBilling { creditBalance } }', undefined, {
      authorization: `Bearer ${ceo.accessToken}`,
    });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toMatchObject({ researchWorkspace: { id: expect.stringMatching(/^ws_/) } });
  });
});

describe('one operation for a key and a signed-in user', () => {
  it('answers researchThreads to the person’s access token and to a key of their workspace, on GraphQL and on each API’s route', async () => {
    const person = await signInWithConsoleClient(stack, demoEmail('Foreman'));
    const started = await call(stack, person.accessToken, 'POST', '/api/chat/threads', { message: 'A tool library for one street.' });
    expect(started.status).toBe(202);
    const created = await call(stack, person.accessToken, 'POST', '/api/chat/api-keys', { name: 'both ways', scopes: ['threads_read'] });
    expect(created.status).toBe(201);
    const key: string = created.body.key;
    const ids = (items: ReadonlyArray<{ id: string }>) => items.map((item) => item.id);
    const query = '{ researchThreads { items { id } } }';
    const overGraphQL = await Promise.all(
      [person.accessToken, key].map((credential) =>
        stack.graphql<{ researchThreads: { items: Array<{ id: string }> } }>(query, undefined, {
          authorization: `Bearer ${credential}`,
        }),
      ),
    );
    for (const answer of overGraphQL) {
      expect(answer.body.errors).toBeUndefined();
      expect(ids(answer.body.data!.researchThreads.items)).toEqual([started.body.thread.id]);
    }
    const keyRoute = await call(stack, key, 'GET', '/v1/chat/threads');
    const workspaceRoute = await call(stack, person.accessToken, 'GET', '/api/chat/threads');
    expect(ids(keyRoute.body.items)).toEqual([started.body.thread.id]);
    expect(ids(workspaceRoute.body.items)).toEqual([started.body.thread.id]);
    // Each API's route still takes its own credential only.
    expect((await call(stack, person.accessToken, 'GET', '/v1/chat/threads')).body.code).toBe('invalid_api_key');
    expect((await call(stack, key, 'GET', '/api/chat/threads')).body.code).toBe('invalid_access_token');
  });
});

describe('a person signed in at a second configured issuer', () => {
  it('finds that issuer, after ours, among the authorization servers of the resource metadata the 401 names', async () => {
    const refused = await call(stack, null, 'GET', '/api/chat/workspace');
    const address = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')![1]!;
    const metadata = (await (await fetch(address)).json()) as { resource: string; authorization_servers: string[] };
    expect(metadata).toMatchObject({ resource: `${stack.url}/api/chat`, authorization_servers: [`${stack.url}/oidc`, second.issuer] });
  });

  it('is accepted, with a workspace of their own even when the subject equals one at our provider', async () => {
    const token = await second.accessToken(engineer.subject, `${stack.url}/api/chat`, { claims: { name: 'Second Issuer Person' } });
    const workspace = await call(stack, token, 'GET', '/api/chat/workspace');
    expect(workspace.status).toBe(200);
    expect(workspace.body.name).toBe('Second Issuer Person');
    const ours = await call(stack, engineer.accessToken, 'GET', '/api/chat/workspace');
    expect(workspace.body.id).not.toBe(ours.body.id);
    expect(await workspacesOf(second.issuer, engineer.subject)).toEqual([{ id: workspace.body.id, kind: 'user' }]);
    expect((await call(stack, token, 'GET', '/api/chat/threads')).body.items).toEqual([]);
  });
});

describe('the OpenAPI description', () => {
  it('lists the workspace routes under the OAuth bearer scheme with their 401', async () => {
    const document = (await (await stack.fetch('/.well-known/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security: unknown; responses: Record<string, unknown> }>>;
    };
    for (const [path, method] of [
      ['/api/chat/threads', 'get'],
      ['/api/chat/threads', 'post'],
      ['/api/chat/threads/{threadId}', 'get'],
      ['/api/chat/threads/{threadId}/messages', 'post'],
      ['/api/chat/threads/{threadId}/research-runs', 'post'],
      ['/api/chat/billing', 'get'],
      ['/api/chat/billing/top-ups', 'post'],
      ['/api/chat/api-keys', 'post'],
      ['/api/chat/api-keys/{apiKeyId}/rotate', 'post'],
      ['/api/chat/api-keys/{apiKeyId}/revoke', 'post'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      expect(operation?.security, `${method} ${path}`).toEqual([{ oauth: [] }]);
      expect(Object.keys(operation!.responses)).toContain('401');
    }
  });
});
