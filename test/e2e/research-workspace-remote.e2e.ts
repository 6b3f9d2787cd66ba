import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDistributed, type DistributedStack } from '../support/distributed.js';
import { LoopbackIssuer } from '../support/jwt-issuer.js';

/**
 * The workspace API deployed by role: the gateway passes the bearer token to a
 * `ROLE=subgraph:research` server over HTTP, whose guard verifies it against a configured
 * issuer and answers the 401 challenge through the remote path unchanged. Every process
 * names the deployment by `PUBLIC_BASE_URL`, the audience of the tokens.
 */

const PUBLIC = 'https://research.example.org';
let deployment: DistributedStack;
let issuer: LoopbackIssuer;

beforeAll(async () => {
  issuer = await LoopbackIssuer.start();
  const shared = { PUBLIC_BASE_URL: PUBLIC, WORKSPACE_OWN_ISSUER: 'false' };
  deployment = await startDistributed(
    { ...shared, DEMO_RESEARCH: 'false', RESEARCH_WELCOME_CREDITS: '5', WORKSPACE_ISSUERS: JSON.stringify([{ issuer: issuer.issuer }]) },
    {},
    shared,
  );
});
afterAll(async () => {
  await deployment?.stop();
  await issuer?.stop();
});

const call = async (path: string, token?: string, body?: unknown) => {
  const response = await fetch(`${deployment.gateway.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};

describe('the workspace API behind a gateway', () => {
  it('answers the 401 challenge from the remote subgraph, naming the public resource metadata', async () => {
    const answer = await call('/api/chat/threads');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${PUBLIC}/.well-known/oauth-protected-resource/api/chat"`,
    );
    expect(answer.body.code).toBe('missing_access_token');
  });

  it('admits a configured issuer’s token for the public audience, and no other audience', async () => {
    const token = await issuer.accessToken('remote-person', `${PUBLIC}/api/chat`, { claims: { email: 'remote@example.org' } });
    const workspace = await call('/api/chat/workspace', token);
    expect(workspace.status).toBe(200);
    expect(workspace.body.name).toBe('remote@example.org');
    const created = await call('/api/chat/threads', token, { message: 'Idea: bikes for rent by the hour' });
    expect(created.status).toBe(202);
    // No LLM here: the offline assistant's turn is free, so the welcome credits are all there.
    expect((await call('/api/chat/billing', token)).body.creditBalance).toBe(5);
    const local = await issuer.accessToken('remote-person', `${deployment.gateway.url}/api/chat`);
    expect((await call('/api/chat/workspace', local)).body.code).toBe('invalid_access_token');
  });

  it('serves the console from the gateway, pointing at the public issuer', async () => {
    const config = await (await fetch(`${deployment.gateway.url}/app/config.json`)).json();
    expect(config).toMatchObject({ issuer: `${PUBLIC}/oidc`, clientId: 'qantara-console' });
  });
});
