import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.js';
import { workspaceResource } from '../../runtime/workspace-resource.js';
import { trustedIssuers } from '../../subgraphs/research/access/workspace-user-guard.js';

/**
 * The workspace API's names, decided once from the configuration: the resource (the audience of
 * every token our provider issues and the guard requires), its metadata address, the issuers it
 * trusts, and the identity provider the site mirrors.
 */

const ORIGIN = 'https://public.example.org';

describe('workspaceResource', () => {
  it('names the resource on the site, with its metadata on the same host, when SITE_BASE_URL is set', () => {
    const config = loadConfig({ SITE_BASE_URL: 'https://example.org/', API_BASE_URL: 'https://api.example.org' });
    expect(workspaceResource(config, ORIGIN)).toMatchObject({
      resource: 'https://example.org/api/chat',
      metadata: 'https://example.org/.well-known/oauth-protected-resource/api/chat',
      ownIssuer: 'https://public.example.org/oidc',
      authorizationServers: ['https://public.example.org/oidc'],
      siteIssuer: 'https://public.example.org/oidc',
    });
  });

  it('falls back to the public origin, never the API address', () => {
    const config = loadConfig({ API_BASE_URL: 'https://api.example.org' });
    expect(workspaceResource(config, ORIGIN)).toMatchObject({
      resource: 'https://public.example.org/api/chat',
      metadata: 'https://public.example.org/.well-known/oauth-protected-resource/api/chat',
    });
  });

  it('trusts ours and each configured issuer for the site resource unless one names its audience, and lists exactly those', () => {
    const config = loadConfig({
      SITE_BASE_URL: 'https://example.org',
      WORKSPACE_ISSUERS: JSON.stringify([
        { issuer: 'https://idp.example.org/', tokenType: false },
        { issuer: 'https://other.example.org', audience: 'api://research', jwksUri: 'https://other.example.org/keys' },
      ]),
    });
    const names = workspaceResource(config, ORIGIN);
    expect(names.issuers).toEqual([
      { issuer: 'https://public.example.org/oidc', audience: 'https://example.org/api/chat' },
      { issuer: 'https://idp.example.org/', audience: 'https://example.org/api/chat', tokenType: false },
      { issuer: 'https://other.example.org', audience: 'api://research', jwksUri: 'https://other.example.org/keys' },
    ]);
    expect(names.authorizationServers).toEqual([
      'https://public.example.org/oidc',
      'https://idp.example.org/',
      'https://other.example.org',
    ]);
    // The guard verifies tokens against the same list.
    expect(trustedIssuers(config, ORIGIN).map((trust) => [trust.issuer, trust.audience, trust.type])).toEqual([
      ['https://public.example.org/oidc', 'https://example.org/api/chat', undefined],
      ['https://idp.example.org/', 'https://example.org/api/chat', false],
      ['https://other.example.org', 'api://research', undefined],
    ]);
  });

  it('mirrors the console’s issuer, named as its tokens say, and lists it first; ours stays listed while trusted', () => {
    const config = loadConfig({
      WORKSPACE_ISSUERS: JSON.stringify([{ issuer: 'https://idp.example.org/' }]),
      CONSOLE_ISSUER: 'https://idp.example.org',
      CONSOLE_CLIENT_ID: 'console',
    });
    const names = workspaceResource(config, ORIGIN);
    expect(names.siteIssuer).toBe('https://idp.example.org/');
    expect(names.authorizationServers).toEqual(['https://idp.example.org/', 'https://public.example.org/oidc']);
  });

  it('lists no issuer of ours when WORKSPACE_OWN_ISSUER=false', () => {
    const config = loadConfig({
      WORKSPACE_OWN_ISSUER: 'false',
      WORKSPACE_ISSUERS: JSON.stringify([{ issuer: 'https://idp.example.org' }]),
    });
    expect(workspaceResource(config, ORIGIN).authorizationServers).toEqual(['https://idp.example.org']);
  });
});
