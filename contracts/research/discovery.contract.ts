import { z } from 'zod';
import { publicAccess } from '../access.js';
import { CommonErrorCode, DomainError } from '../errors.js';
import { OIDC_ISSUER_PATH, WORKSPACE_RESOURCE_PATH } from '../identity.js';
import { LIBRARY_MCP } from '../library/mcp.js';
import { protectedResourceMetadataPath } from '../mcp.js';
import { defineOperation, type WireRequest } from '../operation.js';
import { API_CATALOG_PATH, apiCatalog, LINKSET_TYPE, SERVER_CARD_PATH } from './discovery/catalog.js';
import {
  ApiCatalogWire,
  AuthorizationServerMetadataWire,
  ProtectedResourceMetadataWire,
  ServerCardWire,
  SkillsIndexWire,
} from './discovery/documents.js';
import { mcpResourceMetadata, workspaceResourceMetadata } from './discovery/resource-metadata.js';
import { serverCard } from './discovery/server-card.js';
import { isSkillName, renderSkill, SKILL_TYPE, SKILLS_PATH, skillsIndex } from './discovery/skills.js';
import { RESEARCH_MCP } from './mcp.js';

/**
 * The site's discovery documents (seed 001, part A, Variant A site routes; ADR 0018):
 * static facts of the contracts and the configured addresses, answered by the facade
 * alone — except the identity provider's metadata, which is mirrored from the provider.
 */

const JSON_TYPE = 'application/json';
const CACHED = { 'Cache-Control': 'public, max-age=300' };
const tags = ['discovery'];

const json = (body: unknown) => ({ type: JSON_TYPE, body, headers: CACHED });

export const researchApiCatalog = defineOperation({
  service: 'research',
  name: 'researchApiCatalog',
  kind: 'edge',
  summary: 'API catalog (RFC 9727)',
  description:
    'Every API of this site as a linkset: the REST APIs with their OpenAPI descriptions, the MCP endpoints with their server card and protected resource metadata, the workspace API. `HEAD` answers the `Link` header alone.',
  tags,
  access: publicAccess(),
  output: ApiCatalogWire,
  rest: {
    method: 'GET',
    path: API_CATALOG_PATH,
    contentType: LINKSET_TYPE,
    respond: (_data, request) => ({
      type: LINKSET_TYPE,
      body: apiCatalog(request),
      headers: { ...CACHED, Link: `<${request.siteUrl}${API_CATALOG_PATH}>; rel="api-catalog"` },
    }),
  },
});

/** The site's identity provider's document (the console's, else ours), mirrored as it serves it. */
const mirrored = async (_data: unknown, request: WireRequest) => json(await request.identityProvider.metadata());
/** Ours, at the address RFC 8414 derives from our issuer `<origin>/oidc`, whichever provider the site names. */
const mirroredOwn = async (_data: unknown, request: WireRequest) => json(await request.ownIdentityProvider.metadata());

export const researchAuthorizationServerMetadata = defineOperation({
  service: 'research',
  name: 'researchAuthorizationServerMetadata',
  kind: 'edge',
  summary: 'Authorization server metadata (RFC 8414)',
  description: `The identity provider’s metadata, mirrored: the one the console signs in with (\`CONSOLE_ISSUER\`), else ours (issuer \`<public origin>${OIDC_ISSUER_PATH}\`). Ours is also at its issuer’s RFC 8414 address, \`/.well-known/oauth-authorization-server${OIDC_ISSUER_PATH}\`.`,
  tags,
  access: publicAccess(),
  output: AuthorizationServerMetadataWire,
  rest: [
    { method: 'GET', path: '/.well-known/oauth-authorization-server', respond: mirrored },
    { method: 'GET', path: `/.well-known/oauth-authorization-server${OIDC_ISSUER_PATH}`, respond: mirroredOwn },
  ],
  errors: [CommonErrorCode.UPSTREAM_FAILED],
});

export const researchOpenIdConfiguration = defineOperation({
  service: 'research',
  name: 'researchOpenIdConfiguration',
  kind: 'edge',
  summary: 'OpenID provider configuration',
  description: 'The identity provider’s OpenID Connect discovery document, mirrored: the console’s (`CONSOLE_ISSUER`), else ours.',
  tags,
  access: publicAccess(),
  output: AuthorizationServerMetadataWire,
  rest: { method: 'GET', path: '/.well-known/openid-configuration', respond: mirrored },
  errors: [CommonErrorCode.UPSTREAM_FAILED],
});

export const researchWorkspaceResourceMetadata = defineOperation({
  service: 'research',
  name: 'researchWorkspaceResourceMetadata',
  kind: 'edge',
  summary: 'Protected resource metadata of the workspace API (RFC 9728)',
  description:
    'The workspace chat API takes access tokens for `{site_url}/api/chat` of the issuers it trusts (`authorization_servers`: ours unless `WORKSPACE_OWN_ISSUER=false`, and those of `WORKSPACE_ISSUERS`).',
  tags,
  access: publicAccess(),
  output: ProtectedResourceMetadataWire,
  rest: {
    method: 'GET',
    path: protectedResourceMetadataPath(WORKSPACE_RESOURCE_PATH),
    respond: (_data, request) => json(workspaceResourceMetadata(request)),
  },
});

export const researchMcpResourceMetadata = defineOperation({
  service: 'research',
  name: 'researchMcpResourceMetadata',
  kind: 'edge',
  summary: 'Protected resource metadata of the research MCP endpoint (RFC 9728)',
  description: 'The endpoint takes research API keys as bearer tokens; no authorization server issues them.',
  tags,
  access: publicAccess(),
  output: ProtectedResourceMetadataWire,
  rest: {
    method: 'GET',
    path: protectedResourceMetadataPath(RESEARCH_MCP.path),
    respond: (_data, request) => json(mcpResourceMetadata(RESEARCH_MCP, `${request.siteUrl}${SERVER_CARD_PATH}`, request)),
  },
});

export const researchLibraryMcpResourceMetadata = defineOperation({
  service: 'research',
  name: 'researchLibraryMcpResourceMetadata',
  kind: 'edge',
  summary: 'Protected resource metadata of the library MCP endpoint (RFC 9728)',
  description: 'The endpoint takes library API keys (`POST /v1/register`) as bearer tokens.',
  tags,
  access: publicAccess(),
  output: ProtectedResourceMetadataWire,
  rest: {
    method: 'GET',
    path: protectedResourceMetadataPath(LIBRARY_MCP.path),
    respond: (_data, request) => json(mcpResourceMetadata(LIBRARY_MCP, `${request.apiUrl}/docs`, request)),
  },
});

export const researchMcpServerCard = defineOperation({
  service: 'research',
  name: 'researchMcpServerCard',
  kind: 'edge',
  summary: 'MCP server card',
  description: 'The research MCP server: its streamable HTTP address, the key header and the protocol versions it speaks.',
  tags,
  access: publicAccess(),
  output: ServerCardWire,
  rest: { method: 'GET', path: SERVER_CARD_PATH, respond: (_data, request) => json(serverCard(RESEARCH_MCP, request)) },
});

export const researchAgentSkills = defineOperation({
  service: 'research',
  name: 'researchAgentSkills',
  kind: 'edge',
  summary: 'Index of agent skills',
  description: 'Each skill with the SHA-256 digest of the `SKILL.md` its address serves.',
  tags,
  access: publicAccess(),
  output: SkillsIndexWire,
  rest: { method: 'GET', path: `${SKILLS_PATH}/index.json`, respond: (_data, request) => json(skillsIndex(request)) },
});

export const researchAgentSkill = defineOperation({
  service: 'research',
  name: 'researchAgentSkill',
  kind: 'edge',
  summary: 'An agent skill (SKILL.md)',
  tags,
  access: publicAccess(),
  input: { path: { skill: z.string().max(64).describe('The skill’s name, as the index lists it.') } },
  output: z.string(),
  rest: {
    method: 'GET',
    path: `${SKILLS_PATH}/:skill/SKILL.md`,
    contentType: SKILL_TYPE,
    respond: (_data, request) => {
      const { skill } = request.input as { skill: string };
      if (!isSkillName(skill)) throw new DomainError(CommonErrorCode.NOT_FOUND, `No agent skill named ${skill}.`);
      return { type: SKILL_TYPE, body: renderSkill(skill, request), headers: CACHED };
    },
  },
  errors: [CommonErrorCode.NOT_FOUND],
});

export const DISCOVERY_CONTRACTS = [
  researchApiCatalog,
  researchAuthorizationServerMetadata,
  researchOpenIdConfiguration,
  researchWorkspaceResourceMetadata,
  researchMcpResourceMetadata,
  researchLibraryMcpResourceMetadata,
  researchMcpServerCard,
  researchAgentSkills,
  researchAgentSkill,
];
