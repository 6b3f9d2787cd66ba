import { z } from 'zod';

/** The shapes of the discovery documents, for the OpenAPI description (each is built by its module). */

const Target = z.object({ href: z.string(), type: z.string().optional(), title: z.string().optional() });

export const ApiCatalogWire = z
  .object({
    linkset: z.array(z.object({ anchor: z.string().describe('The API (or, first, the catalog itself).') }).catchall(z.array(Target))),
  })
  .meta({ id: 'ApiCatalog', description: 'RFC 9727 API catalog: an RFC 9264 linkset.' });

export const AuthorizationServerMetadataWire = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    jwks_uri: z.string(),
    response_types_supported: z.array(z.string()),
  })
  .catchall(z.unknown())
  .meta({
    id: 'AuthorizationServerMetadata',
    description: 'The identity provider’s metadata (RFC 8414, OpenID Connect Discovery 1.0), mirrored.',
  });

export const ProtectedResourceMetadataWire = z
  .object({
    resource: z.string(),
    resource_name: z.string(),
    authorization_servers: z.array(z.string()).optional(),
    scopes_supported: z.array(z.string()).optional(),
    bearer_methods_supported: z.array(z.string()),
    resource_documentation: z.string().optional(),
  })
  .meta({ id: 'ProtectedResourceMetadata', description: 'RFC 9728 protected resource metadata.' });

export const ServerCardWire = z
  .object({
    $schema: z.string(),
    name: z.string(),
    title: z.string(),
    description: z.string(),
    version: z.string(),
    websiteUrl: z.string(),
    remotes: z.array(
      z.object({
        type: z.literal('streamable-http'),
        url: z.string(),
        headers: z.array(z.record(z.string(), z.unknown())),
        supportedProtocolVersions: z.array(z.string()),
      }),
    ),
  })
  .meta({ id: 'McpServerCard', description: 'MCP server card (SEP-2127, schema v2).' });

export const SkillsIndexWire = z
  .object({
    $schema: z.string(),
    skills: z.array(
      z.object({
        name: z.string(),
        type: z.literal('skill-md'),
        description: z.string(),
        url: z.string(),
        digest: z.string().describe('`sha256:` and the hex SHA-256 of the bytes `url` serves.'),
      }),
    ),
  })
  .meta({ id: 'AgentSkillsIndex', description: 'Agent Skills Discovery 0.2.0 index.' });
