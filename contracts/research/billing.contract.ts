import { z } from 'zod';
import { publicAccess, researchKey } from '../access.js';
import { defineOperation } from '../operation.js';
import { Billing, Ping, TopUp, WebhookReceipt } from './account-types.js';
import { ResearchErrorCode } from './errors.js';
import { research } from './fields.js';
import { KEY_API, keyOrSignedIn, WORKSPACE_API_PATH, workspaceApi } from './routes.js';

const WORKSPACE_BILLING = `${WORKSPACE_API_PATH}/billing`;
const WORKSPACE_TOP_UPS = `${WORKSPACE_BILLING}/top-ups`;

/** `/v1/ping`, `/v1/billing`: the key, the balance, pricing and top-ups through hosted checkout. */

export const researchPing = defineOperation({
  service: 'research',
  name: 'researchPing',
  kind: 'query',
  summary: 'Check a key',
  description: 'Any valid key, whatever its scopes: the scopes it holds and the route groups this service supports.',
  tags: ['keys'],
  access: researchKey(),
  output: Ping,
  rest: { method: 'GET', path: '/v1/ping' },
});

export const researchBilling = defineOperation({
  service: 'research',
  name: 'researchBilling',
  kind: 'query',
  summary: 'Balance, pricing and top-up options',
  description: 'Credits of the key’s workspace in the key’s mode (test keys have a balance of their own). 1 USD buys 10 credits.',
  tags: ['billing'],
  access: keyOrSignedIn('billing_read'),
  output: Billing,
  rest: [
    {
      method: 'GET',
      path: '/v1/billing',
      respond: (billing, request) => ({ body: { ...billing, topUpEndpoint: `${request.apiUrl}${billing.topUpEndpoint}` } }),
      ...KEY_API,
    },
    {
      method: 'GET',
      path: WORKSPACE_BILLING,
      // A signed-in user tops up through the workspace API.
      respond: (billing, request) => ({ body: { ...billing, topUpEndpoint: `${request.baseUrl}${WORKSPACE_TOP_UPS}` } }),
      ...workspaceApi('researchWorkspaceBilling', 'billing'),
    },
  ],
  mcp: { resource: 'billing', uri: '/billing', description: 'Credit balance, pricing and top-up options of the key’s workspace.' },
});

export const researchCreateTopUp = defineOperation({
  service: 'research',
  name: 'researchCreateTopUp',
  kind: 'mutation',
  summary: 'Start a top-up',
  description:
    'A hosted checkout session for `usdQuantity` dollars (10 credits each); the workspace is credited once the payment succeeds. A test key’s top-up is a sandbox session, credited at once.',
  tags: ['billing'],
  access: keyOrSignedIn('billing_write'),
  idempotency: 'optional',
  input: {
    body: {
      usdQuantity: z.int().min(1).max(1000).describe('Whole US dollars, 1 to 1000.'),
      successUrl: research.returnUrl().describe('Where the payer returns after paying.'),
      cancelUrl: research.returnUrl().describe('Where the payer returns after cancelling.'),
    },
  },
  output: TopUp,
  rest: [
    { method: 'POST', path: '/v1/billing/top-ups', status: 201, ...KEY_API },
    { method: 'POST', path: WORKSPACE_TOP_UPS, status: 201, ...workspaceApi('researchWorkspaceCreateTopUp', 'billing') },
  ],
  errors: [ResearchErrorCode.payments_unavailable, ResearchErrorCode.payment_provider_failed],
});

export const researchStripeWebhook = defineOperation({
  service: 'research',
  name: 'researchStripeWebhook',
  kind: 'stream',
  summary: 'Stripe webhook',
  description:
    'Stripe calls it; the `Stripe-Signature` header is verified on the raw body with `STRIPE_WEBHOOK_SECRET`. `checkout.session.completed` (paid) and `checkout.session.async_payment_succeeded` credit the workspace, once per session however often they are delivered.',
  tags: ['billing'],
  access: publicAccess(),
  output: WebhookReceipt,
  rest: {
    method: 'POST',
    path: '/v1/billing/stripe-webhook',
    body: 'upload',
    bodyLimit: 1_048_576,
    request: z.record(z.string(), z.unknown()).describe('A Stripe event, as Stripe signed it.'),
  },
  errors: [ResearchErrorCode.webhook_signature_invalid, ResearchErrorCode.payments_unavailable],
});
