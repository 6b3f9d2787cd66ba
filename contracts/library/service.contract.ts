import { z } from 'zod';
import { publicAccess } from '../access.js';
import { DomainError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { docsPageRoute, openApiRoute } from '../shared/docs.js';
import { componentsByName, healthBody, ServiceHealth } from '../shared/health.js';
import { LibraryErrorCode } from './errors.js';

/** `/healthz`, and the documentation pages `/docs` and `/openapi.json`. */

const HealthWire = healthBody(z.literal('ok')).meta({ id: 'Health' });

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
  rest: [docsPageRoute('/docs', '/openapi.json'), openApiRoute('/openapi.json')],
  errors: [LibraryErrorCode.rate_limit_exceeded, LibraryErrorCode.quota_exceeded],
});
