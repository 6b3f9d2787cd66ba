import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Config } from '../../../runtime/config.js';
import { ResearchError } from '../research.errors.js';

/** Hosted checkout: Stripe Checkout for live keys, a sandbox that completes at once for test keys. */

export interface CheckoutRequest {
  readonly workspaceId: string;
  readonly usdQuantity: number;
  readonly credits: number;
  readonly successUrl: string;
  readonly cancelUrl: string;
}

export interface CheckoutSession {
  readonly id: string;
  readonly url: string;
  readonly expiresAt: Date | null;
}

/** The Stripe client of the configuration, or none without `STRIPE_SECRET_KEY` (live top-ups then answer 503). */
export function stripeClient(config: Config): Stripe | undefined {
  if (!config.stripeSecretKey) return undefined;
  const api = config.stripeApiUrl ? new URL(config.stripeApiUrl) : undefined;
  return new Stripe(config.stripeSecretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

export class StripeCheckout {
  constructor(private readonly stripe: Stripe | undefined) {}

  async create(request: CheckoutRequest): Promise<CheckoutSession> {
    if (!this.stripe) throw ResearchError.paymentsUnavailable('STRIPE_SECRET_KEY is not set');
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          {
            quantity: request.usdQuantity,
            price_data: {
              currency: 'usd',
              unit_amount: 100,
              product_data: { name: 'Research credits', description: '10 credits per US dollar' },
            },
          },
        ],
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        client_reference_id: request.workspaceId,
        metadata: { workspaceId: request.workspaceId, credits: String(request.credits) },
      });
    } catch (error) {
      throw ResearchError.paymentProviderFailed(error);
    }
    if (!session.url) throw ResearchError.paymentProviderFailed(new Error('the session has no url'));
    return { id: session.id, url: session.url, expiresAt: session.expires_at ? new Date(session.expires_at * 1000) : null };
  }
}

/** A test key's checkout: nothing to pay, the payer goes straight to `successUrl`. */
export function sandboxSession(request: CheckoutRequest): CheckoutSession {
  const id = `cs_test_sandbox_${randomBytes(12).toString('hex')}`;
  const url = new URL(request.successUrl);
  url.searchParams.set('session_id', id);
  return { id, url: url.toString(), expiresAt: null };
}
