import { FacadeError } from '../facade-error.js';
import type { RouteDefinition } from '../route.js';
import { componentsByName, type HealthData } from './health-shapes.js';
import { libraryAccountRoutes } from './library-accounts.js';
import { libraryAdminRoutes } from './library-admin.js';
import { libraryChatRoutes } from './library-chat.js';
import { libraryContentRoutes } from './library-content.js';
import { libraryPageRoutes } from './library-pages.js';

/** Library REST paths (seed 000): each one a named operation and a body shape. */
export const libraryRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/healthz',
    family: 'library',
    operation: 'LibraryHealth',
    respond: (data) => {
      const health = data.libraryHealth as HealthData;
      if (health.status !== 'ok') {
        const down = health.components.filter((component) => !component.up).map((component) => component.name);
        const code = down.includes('search') ? 'INDEX_UNAVAILABLE' : 'SERVICE_UNAVAILABLE';
        return new FacadeError(
          503,
          code,
          `unavailable: ${down.join(', ')} down`,
          null,
          down.map((name) => ({ field: name, message: 'down' })),
        );
      }
      return {
        body: {
          status: 'ok',
          service: health.service,
          version: health.version,
          checkedAt: health.checkedAt,
          components: componentsByName(health),
        },
      };
    },
  },
  ...libraryAccountRoutes,
  ...libraryAdminRoutes,
  ...libraryPageRoutes,
  ...libraryContentRoutes,
  ...libraryChatRoutes,
];
