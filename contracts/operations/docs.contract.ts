import { z } from 'zod';
import { publicAccess } from '../access.js';
import { defineOperation } from '../operation.js';
import { docsPageRoute, openApiRoute } from '../shared/docs.js';

/** The operations API's own description: `/api/v1/openapi.json` and its page `/api/v1/docs`. */

export const operationsDocs = defineOperation({
  service: 'operations',
  name: 'operationsDocs',
  kind: 'edge',
  summary: 'Documentation page',
  tags: ['health'],
  access: publicAccess(),
  output: z.string(),
  rest: [docsPageRoute('/api/v1/docs', '/api/v1/openapi.json'), openApiRoute('/api/v1/openapi.json', (request) => request.baseUrl)],
});
