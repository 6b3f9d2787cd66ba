import { rateLimitHeaders } from './library-components.js';

/**
 * Path items of the library's accounts, admin and service pages. Each metered
 * operation lists exactly the statuses the seed publishes for it.
 */

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

const METERED_ERRORS = { '401': response('Unauthorized'), '429': response('TooManyRequests'), '502': response('UpstreamError') };

const ADMIN_TOKEN = {
  name: 'x-admin-token',
  in: 'header',
  required: false,
  description: 'The admin token (`ADMIN_TOKEN`).',
  schema: { type: 'string', default: '' },
};
const KEY_ID = { name: 'key_id', in: 'path', required: true, description: 'Key id, as `id` in key bodies.', schema: { type: 'integer' } };
const ADMIN_SECURITY = [{ adminToken: [] }];
const ADMIN_ERRORS = { '401': response('AdminUnauthorized'), '422': response('AdminValidationError') };

const adminUpdate = (what: string, schema: string, operationId: string) => ({
  post: {
    tags: ['admin'],
    operationId,
    summary: `Set a key’s ${what}`,
    security: ADMIN_SECURITY,
    parameters: [KEY_ID, ADMIN_TOKEN],
    requestBody: { required: true, content: json(schema) },
    responses: { '200': { description: 'The key after the change.', content: json('Key') }, ...ADMIN_ERRORS },
  },
});

export const LIBRARY_ACCOUNT_PATHS = {
  '/v1/register': {
    post: {
      tags: ['accounts'],
      operationId: 'register',
      summary: 'Register a free key',
      description:
        'No key needed. At most 3 keys per e-mail address and 5 per client address per UTC day. The key appears in this response only; it is stored as a SHA-256 hash.',
      security: [],
      requestBody: { required: true, content: json('RegisterRequest') },
      responses: {
        '201': { description: 'The new key, shown once.', content: json('IssuedKey') },
        '422': { description: 'Missing or malformed e-mail (`invalid_email`) or organisation (`invalid_org`).', content: json('Error') },
        '429': {
          description: 'Too many keys today for this e-mail address or client address (`registration_limit_exceeded`).',
          headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
          content: json('Error'),
        },
      },
    },
  },
  '/v1/me': {
    get: {
      tags: ['accounts'],
      operationId: 'me',
      summary: 'The calling key and its consumption',
      description: 'Counts as a call (operation `me`).',
      responses: {
        '200': { description: 'Key data and consumption today and this minute.', headers: rateLimitHeaders(), content: json('Me') },
        ...METERED_ERRORS,
      },
    },
  },
  '/v1/usage': {
    get: {
      tags: ['accounts'],
      operationId: 'usage',
      summary: 'Consumption log of the last N days',
      description:
        'Counts as a call (operation `usage`). A `days` above 90 is served as 90; a value that is not an integer means the default.',
      parameters: [
        {
          name: 'days',
          in: 'query',
          required: false,
          description: 'Days to cover.',
          schema: { type: 'integer', default: 30, minimum: 1, maximum: 90 },
        },
      ],
      responses: {
        '200': { description: 'One row per UTC day, newest first.', headers: rateLimitHeaders(), content: json('Usage') },
        ...METERED_ERRORS,
      },
    },
  },
};

export const LIBRARY_ADMIN_PATHS = {
  '/admin/keys': {
    post: {
      tags: ['admin'],
      operationId: 'adminCreateKey',
      summary: 'Create a key on any plan',
      description: 'The key appears in this response only.',
      security: ADMIN_SECURITY,
      parameters: [ADMIN_TOKEN],
      requestBody: { required: true, content: json('AdminCreateKey') },
      responses: { '200': { description: 'The new key, shown once.', content: json('IssuedKey') }, ...ADMIN_ERRORS },
    },
  },
  '/admin/keys/{key_id}/plan': adminUpdate('plan', 'AdminSetPlan', 'adminSetKeyPlan'),
  '/admin/keys/{key_id}/rpd': adminUpdate('daily quota', 'AdminSetRpd', 'adminSetKeyRpd'),
  '/admin/keys/{key_id}/status': adminUpdate('status', 'AdminSetStatus', 'adminSetKeyStatus'),
  '/admin/stats': {
    get: {
      tags: ['admin'],
      operationId: 'adminStats',
      summary: 'Keys by plan and status, calls today, busiest keys',
      security: ADMIN_SECURITY,
      parameters: [ADMIN_TOKEN],
      responses: { '200': { description: 'Statistics.', content: json('AdminStats') }, ...ADMIN_ERRORS },
    },
  },
};

export const LIBRARY_SERVICE_PATHS = {
  '/healthz': {
    get: {
      tags: ['service'],
      operationId: 'health',
      summary: 'Health probe',
      security: [],
      responses: {
        '200': { description: 'Service running.', content: json('Health') },
        '503': { description: 'The index engine (`index_unavailable`) or another component is down.', content: json('Error') },
      },
    },
  },
  '/plans': {
    get: {
      tags: ['service'],
      operationId: 'plans',
      summary: 'Plan details',
      security: [],
      responses: { '200': { description: 'Every plan and its limits.', content: json('Plans') } },
    },
  },
  '/': {
    get: {
      tags: ['service'],
      operationId: 'landing',
      summary: 'Landing page',
      security: [],
      responses: { '200': html('HTML landing page (Arabic and English).') },
    },
  },
  '/docs': {
    get: {
      tags: ['service'],
      operationId: 'docs',
      summary: 'Documentation page',
      security: [],
      responses: { '200': html('This description as HTML.') },
    },
  },
  '/openapi.json': {
    get: {
      tags: ['service'],
      operationId: 'openapi',
      summary: 'This OpenAPI description',
      security: [],
      responses: { '200': { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  },
};
