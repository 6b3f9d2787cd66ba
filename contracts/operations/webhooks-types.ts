import { z } from 'zod';
import { OPERATIONS_EVENT_NAMES } from './events/catalog.js';
import { patternMatches } from './events/event.js';
import { timestamps } from './fields.js';

/** Webhook endpoints and their deliveries (docs/adr/0015-webhooks.md). */

/**
 * An event type (`core.reference-book.imported`), a prefix wildcard (`eam.asset.*`: every type
 * under `eam.asset.`) or `*` (every type). Event types are the declared ones
 * (`contracts/operations/events/catalog.ts`, listed by `/api/v1/asyncapi.json`): a pattern
 * that matches none of them is refused.
 */
export const WEBHOOK_EVENT_PATTERN = /^(?:\*|[a-z0-9][a-z0-9_-]*(?:\.[a-z0-9][a-z0-9_-]*)*(?:\.\*)?)$/;

/** The test event `POST …/ping` publishes; it goes to the pinged endpoint alone, whatever its event types. */
export const WEBHOOK_PING_EVENT = 'webhook.ping' as const;

export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_EVENT_TYPES_MAX = 50;

const hasNoCredentials = (value: string) => {
  const url = URL.parse(value);
  return !url || (url.username === '' && url.password === '');
};

export const webhookUrl = () =>
  z
    .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
    .max(WEBHOOK_URL_MAX, { error: `must be at most ${WEBHOOK_URL_MAX} characters` })
    .refine(hasNoCredentials, { error: 'must not contain a user name or password' })
    .describe(
      'Where events are POSTed (http or https; redirects are not followed). A URL that names or resolves to a loopback, ' +
        'private, shared (CGNAT), link-local, multicast, reserved or cloud-metadata address is refused (422), ' +
        'and checked again at every delivery.',
    );

export const webhookEventTypes = () =>
  z
    .array(
      z
        .string()
        .max(200)
        .regex(WEBHOOK_EVENT_PATTERN, { error: 'must be an event type (`eam.asset.created`), a prefix wildcard (`eam.asset.*`) or `*`' })
        // A malformed pattern is told so once, by the form check above.
        .refine((pattern) => !WEBHOOK_EVENT_PATTERN.test(pattern) || OPERATIONS_EVENT_NAMES.some((name) => patternMatches(pattern, name)), {
          error: 'matches no declared event type (see /api/v1/asyncapi.json)',
        }),
    )
    .min(1)
    .max(WEBHOOK_EVENT_TYPES_MAX)
    .describe(
      'Event types to receive: exact names, prefix wildcards (`eam.asset.*`) or `*`; 1 to 50. Each must match a declared event type (`/api/v1/asyncapi.json`).',
    );

export const WebhookEndpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()),
    active: z.boolean().describe('Inactive endpoints receive no new events (a ping still goes out).'),
    secretRotatedAt: z.string().nullable().describe('When the signing secret was last rotated (ISO 8601).'),
    ...timestamps,
  })
  .meta({ id: 'WebhookEndpoint', description: 'A receiver of the organization’s events; its signing secret is never shown again.' });

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z
    .string()
    .describe('The signing secret (`whsec_…`, Standard Webhooks). Shown once: store it now; only a rotation shows a new one.'),
}).meta({ id: 'WebhookEndpointWithSecret', description: 'An endpoint with its new signing secret, answered once.' });

export const WebhookDeliveryStatus = z
  .enum(['pending', 'delivered', 'failed'])
  .meta({ id: 'WebhookDeliveryStatus', description: '`pending` until a 2xx answer or the last attempt.' });

export const WebhookDelivery = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    eventId: z.uuid().describe('The event’s id, also the `webhook-id` header (stable across attempts).'),
    eventType: z.string(),
    status: WebhookDeliveryStatus,
    attempts: z.int(),
    lastResponseStatus: z.int().nullable().describe('HTTP status of the last answer; null when none came.'),
    lastError: z.string().nullable().describe('Why the last attempt failed (truncated).'),
    lastAttemptAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable().describe('When a pending delivery is (re)sent; null once settled.'),
    deliveredAt: z.string().nullable(),
    createdAt: z.string().describe('ISO 8601.'),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event sent to one endpoint, with its attempts.' });

export const WebhookEndpointDeleted = z
  .object({ id: z.uuid(), deleted: z.literal(true) })
  .meta({ id: 'WebhookEndpointDeleted', description: 'The endpoint and its delivery log are gone.' });

export const WebhookPing = z
  .object({ eventId: z.uuid(), type: z.literal(WEBHOOK_PING_EVENT) })
  .meta({ id: 'WebhookPing', description: 'The test event queued for the endpoint; its delivery shows in the log.' });

export type WebhookEndpointData = z.output<typeof WebhookEndpoint>;
export type WebhookDeliveryData = z.output<typeof WebhookDelivery>;
