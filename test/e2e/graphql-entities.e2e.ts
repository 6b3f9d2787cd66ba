import type { Counter } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actors } from '../support/actors.js';
import { demoEmail, login, SUPER_ADMIN, type Session } from '../support/operations.js';
import { signInWithConsoleClient } from '../support/workspace-sign-in.js';

/**
 * The Qantara account `User` is one entity of the public graph: operations owns it, research
 * adds `researchWorkspace`, the library `libraryKeys`. Over real HTTP on real PostgreSQL, the
 * gateway plans one query across the three subgraphs with one `_entities` call per subgraph
 * and level, each subgraph reads a list of accounts with one SQL statement, and each field
 * keeps its own subgraph's rule (a refused field is null with its error at its path).
 */

const WELCOME_CREDITS = 40;
/** Demo users who open their research workspace (signing in with our OpenID provider). */
const WITH_WORKSPACE = ['Admin', 'Engineer', 'CEO'] as const;

let actors: Actors;
let root: Session;
let organizationId: string;

beforeAll(async () => {
  actors = await Actors.start({ RESEARCH_WELCOME_CREDITS: String(WELCOME_CREDITS) });
  root = await login(actors.stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
  organizationId = actors.sessions.get('Admin')!.organizationId!;
  for (const role of WITH_WORKSPACE) {
    const signedIn = await signInWithConsoleClient(actors.stack, `${role.toLowerCase()}@demo.qantara.local`);
    const opened = await actors.stack.fetch('/api/chat/workspace', { headers: { authorization: `Bearer ${signedIn.accessToken}` } });
    expect(opened.status).toBe(200);
  }
}, 180_000);
afterAll(async () => {
  await actors?.stack.stop();
});

type GraphQLBody = {
  data?: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
};

async function graphql(query: string, token: string, headers: Record<string, string> = {}) {
  const response = await actors.stack.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as GraphQLBody };
}

const tokenOf = (role: Parameters<Actors['token']>[0]) => actors.token(role);

/** The current value of one series of a counter of the process's `/metrics` registry. */
async function counted(name: string, labels: Record<string, string>): Promise<number> {
  const metric = actors.stack.system.metrics.registry.getSingleMetric(name) as Counter | undefined;
  const values = (await metric?.get())?.values ?? [];
  const series = values.find((value) => Object.entries(labels).every(([label, wanted]) => value.labels[label] === wanted));
  return series?.value ?? 0;
}

/** What a request cost each subgraph: `_entities` fetches and SQL statements, read from the counters around it. */
async function costOf<T>(work: () => Promise<T>) {
  const measure = async () => ({
    researchEntities: await counted('qantara_subgraph_fetches_total', { subgraph: 'research', root: 'entities' }),
    libraryEntities: await counted('qantara_subgraph_fetches_total', { subgraph: 'library', root: 'entities' }),
    operationsEntities: await counted('qantara_subgraph_fetches_total', { subgraph: 'operations', root: 'entities' }),
    researchSql: await counted('qantara_db_queries_total', { subgraph: 'research' }),
    librarySql: await counted('qantara_db_queries_total', { subgraph: 'library' }),
  });
  const before = await measure();
  const result = await work();
  const after = await measure();
  const delta = Object.fromEntries(Object.entries(after).map(([key, value]) => [key, value - before[key as keyof typeof before]]));
  return { result, cost: delta as typeof before };
}

async function createKey(token: string, org?: string) {
  const response = await actors.stack.fetch('/v1/me/keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(org === undefined ? {} : { org }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('library keys of a signed-in account (/v1/me/keys)', () => {
  it('creates a free key shown once and lists it afterwards without the key', async () => {
    const created = await createKey(tokenOf('Engineer'), 'Pit 3');
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body.key).toMatch(/^qk_/);
    expect(created.body.plan).toBe('free');

    const listed = await actors.stack.fetch('/v1/me/keys', { headers: { authorization: `Bearer ${tokenOf('Engineer')}` } });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { keys: Array<Record<string, unknown>> };
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ id: created.body.id, email: 'engineer@demo.qantara.local', org: 'Pit 3', plan: 'free' });
    expect(JSON.stringify(body)).not.toContain(created.body.key);

    // The key works as any library key does.
    const me = await actors.stack.fetch('/v1/me', { headers: { authorization: `Bearer ${created.body.key}` } });
    expect(me.status).toBe(200);
  });

  it('lists only the calling account’s keys', async () => {
    await createKey(tokenOf('CEO'));
    const listed = await actors.stack.fetch('/v1/me/keys', { headers: { authorization: `Bearer ${tokenOf('Mechanic')}` } });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ keys: [] });
  });

  it('answers 401 invalid_account_token without a token, with a library key, or with a forged token', async () => {
    const key = (await createKey(tokenOf('Foreman'))).body.key as string;
    const tampered = `${tokenOf('Foreman').slice(0, -4)}AAAA`;
    for (const authorization of [undefined, `Bearer ${key}`, `Bearer ${tampered}`]) {
      const response = await actors.stack.fetch('/v1/me/keys', { headers: authorization ? { authorization } : {} });
      expect(response.status, authorization ?? 'no token').toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_account_token');
    }
  });

  it('is described in the library’s OpenAPI with the account’s bearer token and its errors', async () => {
    const document = (await (await actors.stack.fetch('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security: unknown; responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, { bearerFormat?: string }> };
    };
    const path = document.paths['/v1/me/keys']!;
    expect(Object.keys(path).sort()).toEqual(['get', 'post']);
    for (const operation of [path.get!, path.post!]) {
      expect(operation.security).toEqual([{ accountToken: [] }]);
      expect(Object.keys(operation.responses)).toContain('401');
    }
    expect(Object.keys(path.post!.responses)).toEqual(expect.arrayContaining(['201', '422', '429']));
    expect(document.components.securitySchemes.accountToken?.bearerFormat).toBe('JWT');
  });

  it('refuses a token its holder signed out of at once, though its signature still holds', async () => {
    const session = await login(actors.stack, demoEmail('OtibSpecialist'));
    expect((await createKey(session.token)).status).toBe(201);
    const logout = await actors.stack.fetch('/api/v1/iam/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(logout.status).toBe(200);
    const refused = await createKey(session.token);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_account_token');
  });

  it('refuses an unknown body field and an organization name that is too long, creating nothing', async () => {
    const before = await actors.stack.fetch('/v1/me/keys', { headers: { authorization: `Bearer ${tokenOf('Supply')}` } });
    const unknown = await actors.stack.fetch('/v1/me/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokenOf('Supply')}` },
      body: JSON.stringify({ plan: 'unlimited' }),
    });
    expect(unknown.status).toBe(422);
    const long = await createKey(tokenOf('Supply'), 'x'.repeat(201));
    expect(long.status).toBe(422);
    expect(long.body.error.code).toBe('invalid_org');
    const after = await actors.stack.fetch('/v1/me/keys', { headers: { authorization: `Bearer ${tokenOf('Supply')}` } });
    expect(await after.json()).toEqual(await before.json());
  });
});

const ME = `{
  iamMe {
    user {
      id
      email
      researchWorkspace { id creditBalance owner { id email } }
      libraryKeys { id plan org }
    }
  }
}`;

describe('one query across the three subgraphs', () => {
  it('answers the account, its research workspace (and its owner) and its library keys with one _entities call per subgraph and level', async () => {
    const { result, cost } = await costOf(() => graphql(ME, tokenOf('Engineer')));
    expect(result.status).toBe(200);
    expect(result.body.errors).toBeUndefined();
    const user = result.body.data!.iamMe.user;
    expect(user.email).toBe('engineer@demo.qantara.local');
    expect(user.researchWorkspace).toMatchObject({ creditBalance: WELCOME_CREDITS, owner: { id: user.id, email: user.email } });
    expect(user.researchWorkspace.id).toMatch(/^ws_/);
    expect(user.libraryKeys).toEqual([{ id: expect.any(Number), plan: 'free', org: 'Pit 3' }]);
    // Level 1: research and the library once each; level 2: the owner back in operations once.
    expect(cost).toMatchObject({ researchEntities: 1, libraryEntities: 1, operationsEntities: 1 });
  });

  it('gives null without an error to an account that never opened its workspace nor created a key', async () => {
    const { status, body } = await graphql(ME, tokenOf('Mechanic'));
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data!.iamMe.user).toMatchObject({ researchWorkspace: null, libraryKeys: [] });
  });
});

const USERS = `{
  iamListUsers(limit: 50) {
    items { id email researchWorkspace { creditBalance } libraryKeys { plan } }
  }
}`;

describe('a list of accounts', () => {
  it('costs research one _entities call and one SQL statement, and the library one each, for all the accounts of the list', async () => {
    const { result, cost } = await costOf(() => graphql(USERS, root.token, { 'x-organization-id': organizationId }));
    expect(result.status).toBe(200);
    expect(result.body.errors).toBeUndefined();
    const items = result.body.data!.iamListUsers.items as Array<{ email: string; researchWorkspace: { creditBalance: number } | null }>;
    expect(items.length).toBeGreaterThanOrEqual(7);
    const opened = items.filter((item) => item.researchWorkspace !== null).map((item) => item.email);
    expect(opened.sort()).toEqual(WITH_WORKSPACE.map((role) => `${role.toLowerCase()}@demo.qantara.local`).sort());
    for (const item of items) if (item.researchWorkspace) expect(item.researchWorkspace.creditBalance).toBe(WELCOME_CREDITS);
    expect(cost.researchEntities).toBe(1);
    expect(cost.researchSql).toBe(1);
    expect(cost.libraryEntities).toBe(1);
    // The keys of every account, then the last use of every key found.
    expect(cost.librarySql).toBe(2);
  });

  it('shows an Admin their own workspace and keys only: the others are null with their error at their path', async () => {
    const { status, body } = await graphql(USERS, tokenOf('Admin'));
    expect(status).toBe(200);
    const items = body.data!.iamListUsers.items as Array<{ id: string; researchWorkspace: unknown; libraryKeys: unknown }>;
    const own = items.findIndex((item) => item.id === actors.userId('Admin'));
    expect(own).toBeGreaterThanOrEqual(0);
    expect(items[own]!.researchWorkspace).toEqual({ creditBalance: WELCOME_CREDITS });
    expect(items[own]!.libraryKeys).toEqual([]);
    const errors = body.errors ?? [];
    items.forEach((item, index) => {
      if (index === own) return;
      expect(item.researchWorkspace).toBeNull();
      expect(item.libraryKeys).toBeNull();
      const at = (field: string) =>
        errors.find((error) => JSON.stringify(error.path) === JSON.stringify(['iamListUsers', 'items', index, field]));
      expect(at('researchWorkspace')?.extensions?.code).toBe('not_your_workspace');
      expect(at('libraryKeys')?.extensions?.code).toBe('not_your_keys');
    });
  });
});

describe('a workspace reached with our OpenID provider’s token', () => {
  it('names its owner by reference, and the owner’s operations fields are null with operations’ refusal at their path', async () => {
    const signedIn = await signInWithConsoleClient(actors.stack, demoEmail('CEO'));
    const own = await graphql('{ researchWorkspace { id owner { id } } }', signedIn.accessToken);
    expect(own.status).toBe(200);
    expect(own.body.errors).toBeUndefined();
    expect(own.body.data!.researchWorkspace.owner).toEqual({ id: actors.userId('CEO') });

    // Operations takes its own sign-in token only: the account behind the reference stays closed.
    const { status, body } = await graphql('{ researchWorkspace { id owner { id email } } }', signedIn.accessToken);
    expect(status).toBe(200);
    expect(body.data!.researchWorkspace.id).toBe(own.body.data!.researchWorkspace.id);
    expect(body.data!.researchWorkspace.owner).toBeNull();
    const error = body.errors?.find((candidate) => candidate.path?.[0] === 'researchWorkspace');
    expect(error?.path?.slice(0, 2)).toEqual(['researchWorkspace', 'owner']);
    expect(error?.extensions?.code).toBe('TOKEN_INVALID');
  });
});
