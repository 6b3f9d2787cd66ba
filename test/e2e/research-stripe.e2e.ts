import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fundedWorkspace, readLedger, startResearchStack } from '../support/research.js';
import { startFakeStripe, type FakeStripe } from '../support/research-upstreams.js';
import type { TestStack } from '../support/stack.js';

/**
 * Top-ups through Stripe Checkout with the official SDK: session creation against a
 * loopback stand-in of Stripe's API, webhooks signed with
 * `stripe.webhooks.generateTestHeaderString` and verified on the raw body.
 */

const WEBHOOK_SECRET = 'whsec_test_research_0123456789abcdef';
const RETURN = { successUrl: 'https://example.org/paid', cancelUrl: 'https://example.org/cancelled' };

let stack: TestStack;
let bare: TestStack;
let stripe: FakeStripe;

beforeAll(async () => {
  stripe = await startFakeStripe();
  stack = await startResearchStack({
    STRIPE_SECRET_KEY: 'sk_test_research_fake',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
  });
  bare = await startResearchStack();
});
afterAll(async () => {
  await stack?.stop();
  await bare?.stop();
  await stripe?.close();
});

function event(type: string, session: Record<string, unknown>, id = `evt_${Math.random().toString(36).slice(2)}`): string {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: '2025-01-01',
    created: 1,
    data: { object: { object: 'checkout.session', ...session } },
  });
}

function deliver(
  target: TestStack,
  payload: string,
  signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
) {
  return target.fetch('/v1/billing/stripe-webhook', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
}

describe('top-ups', () => {
  it('creates a hosted Checkout session for a live key: 10 credits per dollar, the workspace in its metadata', async () => {
    const workspace = await fundedWorkspace(stack, 'top-up', 0);
    const created = await call(stack, workspace.key, 'POST', '/v1/billing/top-ups', { usdQuantity: 25, ...RETURN });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: stripe.sessions.at(-1)!.id,
      url: `https://checkout.stripe.com/c/pay/${stripe.sessions.at(-1)!.id}`,
      status: 'open',
      sandbox: false,
      usdQuantity: 25,
      creditQuantity: 250,
      expiresAt: expect.any(String),
    });
    const { form, authorization } = stripe.sessions.at(-1)!;
    expect(authorization).toBe('Bearer sk_test_research_fake');
    expect(Object.fromEntries(form)).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '25',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '100',
      success_url: RETURN.successUrl,
      cancel_url: RETURN.cancelUrl,
      client_reference_id: workspace.id,
      'metadata[workspaceId]': workspace.id,
      'metadata[credits]': '250',
    });
    expect((await readLedger(stack, workspace.id)).balance).toBe(0);
  });

  it('credits a paid session once when Stripe delivers its event twice', async () => {
    const workspace = await fundedWorkspace(stack, 'webhook', 0);
    const created = await call(stack, workspace.key, 'POST', '/v1/billing/top-ups', { usdQuantity: 10, ...RETURN });
    const payload = event('checkout.session.completed', { id: created.body.id, payment_status: 'paid', status: 'complete' });
    const first = await deliver(stack, payload);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, credited: true, credits: 100 });
    const second = await deliver(stack, payload);
    expect(await second.json()).toEqual({ received: true, credited: false, credits: 0 });
    const ledger = await readLedger(stack, workspace.id);
    expect(ledger.rows).toEqual([{ kind: 'top_up', delta: 100, balanceAfter: 100, reference: created.body.id }]);
    expect((await call(stack, workspace.key, 'GET', '/v1/billing')).body.creditBalance).toBe(100);
  });

  it('credits once for concurrent deliveries of the completion and the async success of one session', async () => {
    const workspace = await fundedWorkspace(stack, 'async', 0);
    const created = await call(stack, workspace.key, 'POST', '/v1/billing/top-ups', { usdQuantity: 3, ...RETURN });
    const unpaid = await deliver(stack, event('checkout.session.completed', { id: created.body.id, payment_status: 'unpaid' }));
    expect(await unpaid.json()).toEqual({ received: true, credited: false, credits: 0 });
    const paid = event('checkout.session.async_payment_succeeded', { id: created.body.id, payment_status: 'paid' });
    const results = await Promise.all([deliver(stack, paid), deliver(stack, paid), deliver(stack, paid)]);
    const bodies = await Promise.all(results.map((response) => response.json() as Promise<{ credited: boolean }>));
    expect(bodies.filter((body) => body.credited)).toHaveLength(1);
    expect((await readLedger(stack, workspace.id)).balance).toBe(30);
  });

  it('rejects a bad signature with 400 and credits nothing', async () => {
    const workspace = await fundedWorkspace(stack, 'forged', 0);
    const created = await call(stack, workspace.key, 'POST', '/v1/billing/top-ups', { usdQuantity: 10, ...RETURN });
    const payload = event('checkout.session.completed', { id: created.body.id, payment_status: 'paid' });
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    for (const signature of [forged, 't=1,v1=deadbeef', '']) {
      const response = await deliver(stack, payload, signature);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String), code: 'webhook_signature_invalid' });
    }
    // A signature over other bytes than those received: one changed character.
    const tampered = await deliver(
      stack,
      payload.replace('"paid"', '"paid" '),
      Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    );
    expect(tampered.status).toBe(400);
    expect((await readLedger(stack, workspace.id)).balance).toBe(0);
  });

  it('completes a test key’s top-up on the sandbox at once, without Stripe', async () => {
    const before = stripe.sessions.length;
    const workspace = await fundedWorkspace(stack, 'sandbox', 0, 'test');
    const created = await call(stack, workspace.key, 'POST', '/v1/billing/top-ups', { usdQuantity: 5, ...RETURN });
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^cs_test_sandbox_/),
      status: 'complete',
      sandbox: true,
      creditQuantity: 50,
    });
    expect(created.body.url).toBe(`${RETURN.successUrl}?session_id=${created.body.id}`);
    expect(stripe.sessions.length).toBe(before);
    expect((await readLedger(stack, workspace.id, 'test')).balance).toBe(50);
  });

  it('refuses top-up bounds and non-http return addresses with 422', async () => {
    const workspace = await fundedWorkspace(stack, 'bounds', 0);
    for (const body of [
      { usdQuantity: 0, ...RETURN },
      { usdQuantity: 1.5, ...RETURN },
      { usdQuantity: 5, successUrl: 'javascript:alert(1)', cancelUrl: RETURN.cancelUrl },
    ]) {
      const refused = await call(stack, workspace.key, 'POST', '/v1/billing/top-ups', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
  });
});

describe('without Stripe configured', () => {
  it('answers live top-ups and webhooks with a clear 503', async () => {
    const workspace = await fundedWorkspace(bare, 'no stripe', 0);
    const refused = await call(bare, workspace.key, 'POST', '/v1/billing/top-ups', { usdQuantity: 10, ...RETURN });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      error: 'Payments are not configured here: STRIPE_SECRET_KEY is not set.',
      code: 'payments_unavailable',
    });
    const hook = await deliver(bare, event('checkout.session.completed', { id: 'cs_x', payment_status: 'paid' }));
    expect(hook.status).toBe(503);
  });
});
