import { z } from 'zod';
import { members } from '../access.js';
import { defineOperation } from '../operation.js';
import { OperationsErrorCode } from './errors.js';
import { cursorPaging, ops } from './fields.js';
import { WebhookErrorCode } from './webhooks/errors.js';
import {
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointDeleted,
  WebhookEndpointWithSecret,
  webhookEventTypes,
  WebhookPing,
  webhookUrl,
} from './webhooks-types.js';

/**
 * Webhook endpoints of an organization and their delivery log (`/api/v1/webhooks`). The
 * seed names only the `webhooks` key scope; these paths are our design (docs/adr/0015).
 * Events are signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the endpoint's secret.
 */

/**
 * Seed 001 part B: the `webhooks` key scope allows creating and reading endpoints (and their
 * delivery log). Changing, deleting, re-keying, pinging and retrying need the scope of their
 * method, like any other route: `write` for POST and PATCH, `delete` for DELETE.
 */
const access = members(['Admin'], { objectScope: false, keyScope: 'webhooks' });
const base = { service: 'operations', tags: ['webhooks'], access } as const;
const manage = { ...base, access: members(['Admin'], { objectScope: false }) } as const;
const ENDPOINTS = '/api/v1/webhooks/endpoints';
const byId = { id: ops.id() };
const NOT_FOUND = [OperationsErrorCode.RECORD_NOT_FOUND];
/** The seed names the `webhooks` key scope and nothing else of this API. */
const OUR_DESIGN = 'The webhook paths are Qantara’s design (the specification describes none).';
/** A body with a secret is never cached. */
const NO_STORE = { 'Cache-Control': 'no-store' };

export const webhooksCreateEndpoint = defineOperation({
  ...base,
  name: 'webhooksCreateEndpoint',
  kind: 'mutation',
  summary: 'Create a webhook endpoint',
  description:
    'Generates the endpoint’s signing secret and answers it once (`secret`); it is stored encrypted and never shown again. ' +
    'The endpoint receives the events of its types that occur after its creation, each as a POST of ' +
    '`{type, timestamp, data}` with the Standard Webhooks headers `webhook-id` (the event id, the same on every attempt: ' +
    'dedupe by it), `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`). ' +
    'A 2xx answer within 10 s delivers it; otherwise it is sent again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, ' +
    'then marked failed. Redirects are not followed. ' +
    OUR_DESIGN,
  input: {
    body: {
      url: webhookUrl(),
      eventTypes: webhookEventTypes(),
      description: ops.text(0, 500).default(''),
      active: z.boolean().default(true),
    },
  },
  output: WebhookEndpointWithSecret,
  rest: { method: 'POST', path: ENDPOINTS, status: 201, headers: NO_STORE },
  errors: [WebhookErrorCode.WEBHOOK_ENDPOINT_LIMIT_REACHED],
});

export const webhooksListEndpoints = defineOperation({
  ...base,
  name: 'webhooksListEndpoints',
  kind: 'query',
  summary: 'Webhook endpoints of the organization',
  description: `Oldest first; never their secrets. ${OUR_DESIGN}`,
  output: WebhookEndpoint,
  paging: cursorPaging(100, 50),
  rest: { method: 'GET', path: ENDPOINTS },
});

export const webhooksGetEndpoint = defineOperation({
  ...base,
  name: 'webhooksGetEndpoint',
  kind: 'query',
  summary: 'A webhook endpoint',
  input: { path: byId },
  output: WebhookEndpoint,
  rest: { method: 'GET', path: `${ENDPOINTS}/:id` },
  errors: NOT_FOUND,
});

export const webhooksUpdateEndpoint = defineOperation({
  ...manage,
  name: 'webhooksUpdateEndpoint',
  kind: 'mutation',
  summary: 'Change a webhook endpoint',
  description: 'Partial: fields left out keep their value. `eventTypes` replaces the whole list.',
  input: {
    path: byId,
    body: {
      url: webhookUrl().optional(),
      eventTypes: webhookEventTypes().optional(),
      description: ops.text(0, 500).optional(),
      active: z.boolean().optional(),
    },
  },
  output: WebhookEndpoint,
  rest: { method: 'PATCH', path: `${ENDPOINTS}/:id` },
  errors: NOT_FOUND,
});

export const webhooksDeleteEndpoint = defineOperation({
  ...manage,
  name: 'webhooksDeleteEndpoint',
  kind: 'mutation',
  summary: 'Delete a webhook endpoint',
  description: 'Deliveries not yet sent are dropped with its log.',
  input: { path: byId },
  output: WebhookEndpointDeleted,
  rest: { method: 'DELETE', path: `${ENDPOINTS}/:id` },
  errors: NOT_FOUND,
});

export const webhooksRotateEndpointSecret = defineOperation({
  ...manage,
  name: 'webhooksRotateEndpointSecret',
  kind: 'mutation',
  summary: 'Rotate the signing secret of a webhook endpoint',
  description:
    'Answers the new secret once. For 24 hours deliveries carry a signature with the previous secret as well, ' +
    'so the receiver can switch without losing events.',
  input: { path: byId },
  output: WebhookEndpointWithSecret,
  rest: { method: 'POST', path: `${ENDPOINTS}/:id/rotate-secret`, headers: NO_STORE },
  errors: NOT_FOUND,
});

export const webhooksPingEndpoint = defineOperation({
  ...manage,
  name: 'webhooksPingEndpoint',
  kind: 'mutation',
  summary: 'Send a test event to a webhook endpoint',
  description: 'Queues a `webhook.ping` event for this endpoint alone (active or not, whatever its event types).',
  idempotency: 'optional',
  input: { path: byId },
  output: WebhookPing,
  rest: { method: 'POST', path: `${ENDPOINTS}/:id/ping`, status: 202 },
  errors: NOT_FOUND,
});

export const webhooksListDeliveries = defineOperation({
  ...base,
  name: 'webhooksListDeliveries',
  kind: 'query',
  summary: 'Delivery log of a webhook endpoint',
  description: 'Newest first.',
  input: { path: byId, query: { status: WebhookDeliveryStatus.optional() } },
  output: WebhookDelivery,
  paging: cursorPaging(100, 50),
  rest: { method: 'GET', path: `${ENDPOINTS}/:id/deliveries` },
  errors: NOT_FOUND,
});

export const webhooksRetryDelivery = defineOperation({
  ...manage,
  name: 'webhooksRetryDelivery',
  kind: 'mutation',
  summary: 'Re-queue a failed delivery',
  description: 'One more attempt, sent at once; if it fails the delivery is `failed` again. Only a `failed` delivery can be re-queued.',
  input: { path: { ...byId, deliveryId: ops.id() } },
  output: WebhookDelivery,
  rest: { method: 'POST', path: `${ENDPOINTS}/:id/deliveries/:deliveryId/retry` },
  errors: [...NOT_FOUND, OperationsErrorCode.STATE_CONFLICT],
});

export const WEBHOOK_CONTRACTS = [
  webhooksCreateEndpoint,
  webhooksListEndpoints,
  webhooksGetEndpoint,
  webhooksUpdateEndpoint,
  webhooksDeleteEndpoint,
  webhooksRotateEndpointSecret,
  webhooksPingEndpoint,
  webhooksListDeliveries,
  webhooksRetryDelivery,
] as const;
