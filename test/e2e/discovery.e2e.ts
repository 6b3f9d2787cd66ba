import { createHash } from 'node:crypto';
import { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundedWorkspace, startResearchStack } from '../support/research.js';
import type { TestStack } from '../support/stack.js';

/**
 * The site's discovery documents over real HTTP, each with its content type and checked
 * against the members its specification requires; every address they give is followed.
 */

let stack: TestStack;
beforeAll(async () => {
  stack = await startResearchStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function getJson(path: string) {
  const response = await stack.fetch(path);
  expect(response.status, path).toBe(200);
  return { response, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const isAbsoluteUrl = (value: unknown) => typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
const jsonType = (response: Response) => expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);

describe('/.well-known/api-catalog (RFC 9727)', () => {
  const catalogUrl = () => `${stack.url}/.well-known/api-catalog`;

  it('is a linkset (RFC 9264) with the RFC 9727 profile, listing every API as an item of the catalog', async () => {
    const response = await stack.fetch('/.well-known/api-catalog');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(
      /^application\/linkset\+json; ?profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"/,
    );
    const { linkset } = (await response.json()) as { linkset: Array<Record<string, unknown>> };
    expect(Array.isArray(linkset)).toBe(true);
    for (const context of linkset) {
      expect(isAbsoluteUrl(context.anchor)).toBe(true);
      for (const [relation, targets] of Object.entries(context)) {
        if (relation === 'anchor') continue;
        expect(Array.isArray(targets), relation).toBe(true);
        for (const target of targets as Array<Record<string, unknown>>) expect(isAbsoluteUrl(target.href), relation).toBe(true);
      }
    }
    const [catalog, ...apis] = linkset;
    expect(catalog!.anchor).toBe(catalogUrl());
    expect((catalog!.item as Array<{ href: string }>).map((item) => item.href)).toEqual(apis.map((api) => api.anchor));
    const byAnchor = Object.fromEntries(apis.map((api) => [api.anchor as string, api]));
    expect(Object.keys(byAnchor)).toEqual(
      expect.arrayContaining([`${stack.url}/v1`, `${stack.url}/mcp`, `${stack.url}/api/chat`, `${stack.url}/v1/mcp`]),
    );
    expect(byAnchor[`${stack.url}/v1`]!['service-desc']).toEqual([
      expect.objectContaining({ href: `${stack.url}/.well-known/openapi.json`, type: expect.stringContaining('openapi') }),
    ]);
    expect((byAnchor[`${stack.url}/mcp`]!['service-meta'] as Array<{ href: string }>).map((link) => link.href)).toEqual([
      `${stack.url}/.well-known/mcp/server-card.json`,
      `${stack.url}/.well-known/oauth-protected-resource/mcp`,
    ]);
  });

  it('points only to documents that are served', async () => {
    const { linkset } = (await (await stack.fetch('/.well-known/api-catalog')).json()) as { linkset: Array<Record<string, unknown>> };
    const hrefs = linkset.flatMap((context) =>
      ['service-desc', 'service-doc', 'service-meta', 'status'].flatMap((relation) =>
        ((context[relation] as Array<{ href: string }> | undefined) ?? []).map((target) => target.href),
      ),
    );
    expect(hrefs.length).toBeGreaterThanOrEqual(10);
    for (const href of hrefs) expect((await fetch(href)).status, href).toBe(200);
  });

  it('answers HEAD with the api-catalog Link header and no body', async () => {
    const response = await stack.fetch('/.well-known/api-catalog', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('link')).toBe(`<${catalogUrl()}>; rel="api-catalog"`);
    expect(await response.text()).toBe('');
  });
});

describe('/.well-known/openapi.json', () => {
  it('describes the research REST API and its MCP endpoint, served from {api_url}', async () => {
    const { response, body } = await getJson('/.well-known/openapi.json');
    jsonType(response);
    expect(body.openapi).toBe('3.1.0');
    expect(body.servers).toEqual([{ url: stack.url }]);
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/v1/chat/threads', '/v1/billing', '/mcp']));
    expect(body.paths['/mcp'].post.description).toContain('send_message');
  });
});

describe('authorization server metadata, mirrored from the identity provider', () => {
  let provider: Record<string, unknown>;
  beforeAll(async () => {
    provider = (await getJson('/oidc/.well-known/openid-configuration')).body;
  });

  it.each(['/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/oidc'])(
    '%s holds the RFC 8414 required members of the provider, as the provider serves them',
    async (path) => {
      const { response, body } = await getJson(path);
      jsonType(response);
      expect(body).toEqual(provider);
      expect(body.issuer).toBe(`${stack.url}/oidc`);
      for (const member of ['authorization_endpoint', 'token_endpoint', 'jwks_uri']) expect(isAbsoluteUrl(body[member]), member).toBe(true);
      expect(body.response_types_supported).toContain('code');
      expect(body.code_challenge_methods_supported).toContain('S256');
    },
  );

  it('/.well-known/openid-configuration holds the OpenID Connect Discovery required members', async () => {
    const { response, body } = await getJson('/.well-known/openid-configuration');
    jsonType(response);
    expect(body).toEqual(provider);
    for (const member of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'])
      expect(isAbsoluteUrl(body[member]), member).toBe(true);
    for (const member of ['response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported']) {
      expect(Array.isArray(body[member]) && body[member].length > 0, member).toBe(true);
    }
    expect((await fetch(body.jwks_uri)).status).toBe(200);
  });
});

describe('protected resource metadata (RFC 9728)', () => {
  it.each([
    ['/.well-known/oauth-protected-resource/api/chat', '/api/chat'],
    ['/.well-known/oauth-protected-resource/mcp', '/mcp'],
    ['/.well-known/oauth-protected-resource/v1/mcp', '/v1/mcp'],
  ])('%s names the resource it was fetched for', async (path, resourcePath) => {
    const { response, body } = await getJson(path);
    jsonType(response);
    // The resource identifier is the metadata address with the well-known part taken out (RFC 9728 §3.3).
    expect(body.resource).toBe(`${stack.url}${resourcePath}`);
    expect(body.bearer_methods_supported).toEqual(['header']);
    expect(typeof body.resource_name).toBe('string');
    if (body.resource_documentation !== undefined) expect((await fetch(body.resource_documentation)).status).toBe(200);
  });

  it('names the identity provider as the workspace API’s authorization server, and none for API-key endpoints', async () => {
    const chat = (await getJson('/.well-known/oauth-protected-resource/api/chat')).body;
    expect(chat.authorization_servers).toEqual([`${stack.url}/oidc`]);
    expect(chat.scopes_supported).toEqual(['workspace']);
    const mcp = (await getJson('/.well-known/oauth-protected-resource/mcp')).body;
    expect(mcp.authorization_servers).toBeUndefined();
    expect(mcp.scopes_supported).toEqual(expect.arrayContaining(['threads_read', 'threads_write', 'research_write', 'billing_read']));
  });
});

describe('discovery as the MCP SDK’s OAuth client does it', () => {
  it('finds the workspace API’s metadata, then its authorization server from the issuer alone', async () => {
    const resource = await discoverOAuthProtectedResourceMetadata(new URL(`${stack.url}/api/chat`));
    expect(resource.resource).toBe(`${stack.url}/api/chat`);
    const issuer = resource.authorization_servers![0]!;
    const metadata = await discoverAuthorizationServerMetadata(issuer);
    expect(metadata).toMatchObject({ issuer, authorization_endpoint: `${issuer}/auth` });
  });

  it('follows the resource_metadata of a 401 from /mcp to metadata naming /mcp', async () => {
    const refused = await stack.fetch('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const address = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
    const metadata = await discoverOAuthProtectedResourceMetadata(new URL(`${stack.url}/mcp`), { resourceMetadataUrl: address });
    expect(metadata.resource).toBe(`${stack.url}/mcp`);
  });
});

describe('/.well-known/mcp/server-card.json', () => {
  it('is a v2 server card whose streamable HTTP remote a client connects to with the header it names', async () => {
    const { response, body } = await getJson('/.well-known/mcp/server-card.json');
    jsonType(response);
    expect(body.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json');
    expect(body.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(typeof body.version).toBe('string');
    expect(body.description.length).toBeGreaterThan(0);
    expect(body.description.length).toBeLessThanOrEqual(100);
    const [remote] = body.remotes;
    expect(remote).toMatchObject({ type: 'streamable-http', url: `${stack.url}/mcp` });
    expect(remote.supportedProtocolVersions).toContain('2025-11-25');
    const header = remote.headers.find((entry: { name: string }) => entry.name === 'Authorization');
    expect(header).toMatchObject({ isRequired: true, isSecret: true, value: 'Bearer {api_key}' });

    const workspace = await fundedWorkspace(stack, 'card', 0, 'test');
    const client = new Client({ name: 'card-reader', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(remote.url), {
        requestInit: { headers: { [header.name]: header.value.replace('{api_key}', workspace.key) } },
      }),
    );
    expect(client.getServerVersion()).toMatchObject({ name: body.name, version: body.version });
    await client.close();
  });
});

describe('/.well-known/agent-skills/index.json', () => {
  it('lists each skill with the SHA-256 digest of the bytes its address serves', async () => {
    const { response, body } = await getJson('/.well-known/agent-skills/index.json');
    jsonType(response);
    expect(body.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(body.skills.map((skill: { name: string }) => skill.name).sort()).toEqual(['qantara-library', 'qantara-research']);
    for (const skill of body.skills as Array<Record<string, string>>) {
      expect(skill.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(skill.type).toBe('skill-md');
      expect(skill.description!.length).toBeGreaterThan(0);
      expect(skill.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      const served = await fetch(skill.url!);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^text\/markdown/);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(skill.digest);
      const text = bytes.toString('utf8');
      expect(text).toMatch(new RegExp(`^---\\nname: ${skill.name}\\ndescription: `));
      expect(text).not.toContain('{api_url}');
      expect(text).toContain(stack.url);
    }
  });

  it('answers an unknown skill with 404 in the research error shape', async () => {
    const response = await stack.fetch('/.well-known/agent-skills/nothing-here/SKILL.md');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });
});
