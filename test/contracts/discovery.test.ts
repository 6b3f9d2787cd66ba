import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RestBinding, WireRequest } from '../../contracts/operation.js';
import {
  researchAgentSkill,
  researchAgentSkills,
  researchApiCatalog,
  researchMcpResourceMetadata,
  researchMcpServerCard,
  researchWorkspaceResourceMetadata,
} from '../../contracts/research/discovery.contract.js';

/** The discovery documents when the site and the API have addresses of their own (`SITE_BASE_URL`, `API_BASE_URL`). */

const request = (input: Record<string, unknown> = {}): WireRequest => ({
  baseUrl: 'https://public.example.org',
  siteUrl: 'https://example.org',
  apiUrl: 'https://api.example.org',
  identityProvider: { issuer: 'https://id.example.org', metadata: async () => ({}) },
  ownIdentityProvider: { issuer: 'https://public.example.org/oidc', metadata: async () => ({}) },
  workspaceResource: {
    resource: 'https://example.org/api/chat',
    metadata: 'https://example.org/.well-known/oauth-protected-resource/api/chat',
    authorizationServers: ['https://id.example.org', 'https://public.example.org/oidc'],
  },
  input,
  body: undefined,
  headers: {},
  openapi: () => ({}),
  metrics: async () => ({ type: 'text/plain', body: '' }),
});

/** What the contract's (first) REST binding answers. */
async function answer(contract: { readonly rest: readonly unknown[] }, input: Record<string, unknown> = {}) {
  const binding = contract.rest[0] as RestBinding;
  return binding.respond!(undefined as never, request(input));
}

describe('discovery documents with distinct site and API addresses', () => {
  it('anchors the catalog on the site and the endpoints on the API', async () => {
    const { body, headers } = await answer(researchApiCatalog);
    const { linkset } = body as { linkset: Array<{ anchor: string }> };
    expect(linkset[0]!.anchor).toBe('https://example.org/.well-known/api-catalog');
    expect(headers?.Link).toBe('<https://example.org/.well-known/api-catalog>; rel="api-catalog"');
    expect(linkset.map((context) => context.anchor)).toEqual(
      expect.arrayContaining(['https://api.example.org/v1', 'https://api.example.org/mcp', 'https://example.org/api/chat']),
    );
  });

  it('puts the MCP transport and its resource on the API host, the workspace API on the site', async () => {
    const card = (await answer(researchMcpServerCard)).body as { remotes: Array<{ url: string }>; websiteUrl: string };
    expect(card.remotes[0]!.url).toBe('https://api.example.org/mcp');
    expect(card.websiteUrl).toBe('https://example.org');
    expect((await answer(researchMcpResourceMetadata)).body).toMatchObject({ resource: 'https://api.example.org/mcp' });
    expect((await answer(researchWorkspaceResourceMetadata)).body).toMatchObject({
      resource: 'https://example.org/api/chat',
      authorization_servers: ['https://id.example.org', 'https://public.example.org/oidc'],
    });
  });

  it('indexes skills on the site with the digest of the bytes served, which name the API host', async () => {
    const index = (await answer(researchAgentSkills)).body as { skills: Array<{ name: string; url: string; digest: string }> };
    for (const skill of index.skills) {
      expect(skill.url).toBe(`https://example.org/.well-known/agent-skills/${skill.name}/SKILL.md`);
      const served = (await answer(researchAgentSkill, { skill: skill.name })).body as Buffer;
      expect(skill.digest).toBe(`sha256:${createHash('sha256').update(served).digest('hex')}`);
      expect(served.toString('utf8')).toContain('https://api.example.org/');
    }
  });
});
