import { discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackIssuer } from '../support/jwt-issuer.js';
import { freePort } from '../support/loopback.js';
import { demoEmail, OPERATIONS_ENV } from '../support/operations.js';
import { call, startResearchStack } from '../support/research.js';
import type { TestStack } from '../support/stack.js';
import { signInWithConsoleClient, type SignedIn } from '../support/workspace-sign-in.js';

/**
 * The workspace API when the site and the API have hosts of their own (`SITE_BASE_URL`,
 * `API_BASE_URL`; the public origin is the API's): the access tokens of our provider, the
 * workspace API's guard, its 401 challenge and its protected resource metadata all name the
 * resource `{site_url}/api/chat`; the metadata lists the issuers the guard trusts; the site
 * mirrors the identity provider the console signs in with (`CONSOLE_ISSUER`).
 */

let stack: TestStack;
let second: LoopbackIssuer;
let engineer: SignedIn;
let site: string;
let api: string;

beforeAll(async () => {
  second = await LoopbackIssuer.start();
  const port = await freePort();
  site = `http://localhost:${port}`;
  api = `http://127.0.0.1:${port}`;
  stack = await startResearchStack({
    ...OPERATIONS_ENV,
    PORT: String(port),
    SITE_BASE_URL: site,
    API_BASE_URL: api,
    WORKSPACE_ISSUERS: JSON.stringify([{ issuer: second.issuer }]),
    CONSOLE_ISSUER: second.issuer,
    CONSOLE_CLIENT_ID: 'loopback-client',
  });
  engineer = await signInWithConsoleClient(stack, demoEmail('Engineer'));
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await second?.stop();
});

const ours = () => `${api}/oidc`;
const resource = () => `${site}/api/chat`;
const metadataUrl = () => `${site}/.well-known/oauth-protected-resource/api/chat`;

describe('one name for the workspace API, on the site host', () => {
  it('is the audience of our provider’s access tokens, which the workspace API accepts on either host', async () => {
    expect(site).not.toBe(api);
    expect(decodeJwt(engineer.accessToken)).toMatchObject({ iss: ours(), aud: resource() });
    const viaApiHost = await call(stack, engineer.accessToken, 'GET', '/api/chat/workspace');
    expect(viaApiHost.status).toBe(200);
    const viaSite = await fetch(`${site}/api/chat/workspace`, { headers: { authorization: `Bearer ${engineer.accessToken}` } });
    expect(viaSite.status).toBe(200);
    expect(((await viaSite.json()) as { id: string }).id).toBe(viaApiHost.body.id);
  });

  it('answers 401 pointing to metadata that is served and whose resource is the tokens’ audience', async () => {
    const refused = await call(stack, null, 'GET', '/api/chat/threads');
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    const address = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    const served = await fetch(address);
    expect(served.status).toBe(200);
    const metadata = (await served.json()) as { resource: string; authorization_servers: string[] };
    expect(metadata.resource).toBe(decodeJwt(engineer.accessToken).aud);
    // As an OAuth client finds it from the resource and the challenge (RFC 9728 §3.3: the resource it asked for).
    const discovered = await discoverOAuthProtectedResourceMetadata(new URL(resource()), { resourceMetadataUrl: address });
    expect(discovered.resource).toBe(resource());
    const invalid = await call(stack, 'not-a-jwt', 'GET', '/api/chat/threads');
    expect(invalid.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${metadataUrl()}"`);
  });

  it('refuses a token for the API host’s /api/chat: the site’s resource is the audience', async () => {
    const forSite = await second.accessToken('addresses-person', resource());
    expect((await call(stack, forSite, 'GET', '/api/chat/workspace')).status).toBe(200);
    const forApiHost = await second.accessToken('addresses-person', `${api}/api/chat`);
    expect((await call(stack, forApiHost, 'GET', '/api/chat/workspace')).body.code).toBe('invalid_access_token');
  });

  it('is the workspace API’s anchor and metadata in the API catalog', async () => {
    const { linkset } = (await (await stack.fetch('/.well-known/api-catalog')).json()) as {
      linkset: Array<{ anchor: string; 'service-meta'?: Array<{ href: string }> }>;
    };
    const workspace = linkset.find((context) => context.anchor === resource());
    expect(workspace?.['service-meta']?.map((link) => link.href)).toEqual([metadataUrl()]);
    expect(linkset.map((context) => context.anchor)).toEqual(expect.arrayContaining([`${api}/v1`, `${api}/mcp`]));
  });
});

describe('the issuers the metadata names', () => {
  it('lists as authorization_servers exactly the issuers whose tokens are accepted: the console’s first, then ours', async () => {
    const metadata = (await (await fetch(metadataUrl())).json()) as { authorization_servers: string[] };
    expect(metadata.authorization_servers).toEqual([second.issuer, ours()]);
    for (const issuer of metadata.authorization_servers) {
      expect((await fetch(`${issuer}/.well-known/openid-configuration`)).status, issuer).toBe(200);
    }
    const stranger = await LoopbackIssuer.start();
    try {
      const token = await stranger.accessToken('addresses-person', resource());
      expect((await call(stack, token, 'GET', '/api/chat/workspace')).body.code).toBe('invalid_access_token');
    } finally {
      await stranger.stop();
    }
  });

  it('mirrors the console’s identity provider at the site’s well-known addresses, and ours at its own RFC 8414 address', async () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const mirrored = await stack.fetch(path);
      expect(mirrored.status, path).toBe(200);
      expect(((await mirrored.json()) as { issuer: string }).issuer, path).toBe(second.issuer);
    }
    const own = (await (await stack.fetch('/.well-known/oauth-authorization-server/oidc')).json()) as { issuer: string };
    expect(own).toEqual(await (await fetch(`${ours()}/.well-known/openid-configuration`)).json());
    expect(own.issuer).toBe(ours());
    const console = (await (await stack.fetch('/app/config.json')).json()) as { issuer: string };
    expect(console.issuer).toBe(second.issuer);
  });
});
