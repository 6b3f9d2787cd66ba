import { z } from 'zod';
import { publicAccess } from '../access.js';
import { DomainError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { DOCS_PAGE_HEADERS, renderDocsPage } from '../pages/docs-page.js';
import { ServiceHealth, type ServiceHealthData } from '../shared/health.js';
import { LibraryErrorCode } from './errors.js';

/** `/healthz`, and the documentation pages `/docs` and `/openapi.json`. */

/** Components keyed by name, for bodies that list dependency states. */
export function componentsByName(health: ServiceHealthData) {
  return Object.fromEntries(
    health.components.map((component) => [
      component.name,
      { status: component.status, detail: component.detail, latencyMs: component.latencyMs },
    ]),
  );
}

const HealthWire = z
  .object({
    status: z.literal('ok'),
    service: z.string(),
    version: z.string(),
    checkedAt: z.string(),
    components: z.record(
      z.string(),
      z.object({ status: z.enum(['up', 'degraded', 'down']), detail: z.string().nullable(), latencyMs: z.number().nullable() }),
    ),
  })
  .meta({ id: 'Health' });

export const libraryHealth = defineOperation({
  service: 'library',
  name: 'libraryHealth',
  kind: 'query',
  summary: 'Service health',
  description:
    'Library health: database, migrations and search engine. No key needed; counted per client address like the other open routes. 503 when the index engine is stopped.',
  tags: ['service'],
  access: publicAccess(),
  output: ServiceHealth,
  rest: {
    method: 'GET',
    path: '/healthz',
    response: HealthWire,
    respond: (health) => {
      if (health.status !== 'ok') {
        const down = health.components.filter((component) => !component.up).map((component) => component.name);
        const code = down.includes('search') ? LibraryErrorCode.index_unavailable : LibraryErrorCode.service_unavailable;
        throw new DomainError(code, `unavailable: ${down.join(', ')} down`, {
          details: down.map((name) => ({ field: name, message: 'down' })),
        });
      }
      const { service, version, checkedAt } = health;
      return { body: { status: 'ok', service, version, checkedAt, components: componentsByName(health) } };
    },
  },
  errors: [
    LibraryErrorCode.index_unavailable,
    LibraryErrorCode.service_unavailable,
    LibraryErrorCode.rate_limit_exceeded,
    LibraryErrorCode.quota_exceeded,
  ],
});

export const libraryDocs = defineOperation({
  service: 'library',
  name: 'libraryDocs',
  kind: 'edge',
  summary: 'Documentation page',
  description: 'No key needed; counted per client address like the other open routes.',
  tags: ['service'],
  access: publicAccess({ perAddress: true }),
  output: z.string(),
  rest: [
    {
      method: 'GET',
      path: '/docs',
      contentType: 'text/html',
      respond: (_data, request) => ({
        type: 'text/html; charset=utf-8',
        headers: DOCS_PAGE_HEADERS,
        body: renderDocsPage(request.openapi(), '/openapi.json'),
      }),
    },
    {
      method: 'GET',
      path: '/openapi.json',
      summary: 'This description (OpenAPI 3.1)',
      respond: (_data, request) => ({ type: 'application/json', body: request.openapi() }),
    },
  ],
  errors: [LibraryErrorCode.rate_limit_exceeded, LibraryErrorCode.quota_exceeded],
});
