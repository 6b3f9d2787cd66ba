import { z } from 'zod';
import { publicAccess } from '../access.js';
import { defineOperation } from '../operation.js';
import { docsPageRoute, openApiRoute } from '../shared/docs.js';

/** The research API's own description, at the well-known address the seed names, and its page `/research/docs`. */

export const researchOpenApi = defineOperation({
  service: 'research',
  name: 'researchOpenApi',
  kind: 'edge',
  summary: 'This description (OpenAPI 3.1)',
  tags: ['health'],
  access: publicAccess(),
  output: z.string(),
  rest: openApiRoute('/.well-known/openapi.json', (request) => request.apiUrl),
});

export const researchDocs = defineOperation({
  service: 'research',
  name: 'researchDocs',
  kind: 'edge',
  summary: 'Documentation page',
  tags: ['health'],
  access: publicAccess(),
  output: z.string(),
  rest: docsPageRoute('/research/docs', '/.well-known/openapi.json'),
});
