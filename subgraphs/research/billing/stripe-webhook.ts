import type { EntityManager } from '@mikro-orm/postgresql';
import Stripe from 'stripe';
import type { Logger } from '../../../runtime/logger.js';
import { withAfterCommit } from '../../shared/after-commit.js';
import { ResearchError } from '../research.errors.js';
import type { BillingService } from './billing.service.js';

/** The largest Stripe event accepted; real ones are a few kilobytes. */
const MAX_EVENT_BYTES = 1_048_576;

async function readAll(body: AsyncIterable<Uint8Array> | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_EVENT_BYTES) throw ResearchError.webhookSignatureInvalid();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * Stripe's webhook: the signature is checked on the raw bytes as they arrived (the body
 * reaches this stream unparsed), then a paid `checkout.session.completed` or a
 * `checkout.session.async_payment_succeeded` credits the session's top-up — once per
 * session, because the ledger records the session id. Other events are acknowledged.
 */
export class StripeWebhook {
  constructor(
    private readonly secret: string | undefined,
    private readonly billing: BillingService,
    private readonly logger: Logger,
  ) {}

  async receive(em: EntityManager, signature: string | undefined, body: AsyncIterable<Uint8Array> | undefined) {
    if (!this.secret) throw ResearchError.paymentsUnavailable('STRIPE_WEBHOOK_SECRET is not set');
    const raw = await readAll(body);
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(raw, signature ?? '', this.secret);
    } catch {
      throw ResearchError.webhookSignatureInvalid();
    }
    const credits = await this.handle(em, event);
    return { received: true, credited: credits > 0, credits };
  }

  private async handle(em: EntityManager, event: Stripe.Event): Promise<number> {
    if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') return 0;
    const session = event.data.object;
    const paid = event.type === 'checkout.session.async_payment_succeeded' || session.payment_status !== 'unpaid';
    if (!paid) return 0;
    // A stream runs outside the service's `around`: the webhook opens the transaction itself.
    const credits = await withAfterCommit(em, this.logger, (tx) => this.billing.creditSession(tx, session.id));
    this.logger.info({ session: session.id, event: event.id, credits }, 'checkout session settled');
    return credits;
  }
}
