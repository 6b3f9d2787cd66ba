import { raw, type EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import { CHAT_TURN_CREDITS, CREDITS_PER_USD, RESEARCH_RUN_CREDITS, TOP_UP_OPTIONS } from '../../../contracts/research/account-types.js';
import type { researchCreateTopUp } from '../../../contracts/research/billing.contract.js';
import type { WorkspaceActor } from '../access/workspace-actor.js';
import { sandboxSession, type StripeCheckout } from './checkout.js';
import type { CreditLedger } from './credit-ledger.js';
import { TopUpEntity } from './credit.entity.js';

export type TopUpInput = ContractInput<typeof researchCreateTopUp>;

/** The billing record and top-ups: a live key pays through Stripe Checkout, a test key's sandbox credits at once. */
export class BillingService {
  constructor(
    private readonly ledger: CreditLedger,
    private readonly checkout: StripeCheckout,
  ) {}

  async billing(em: EntityManager, caller: WorkspaceActor) {
    return {
      chatTurnBillingMode: 'fixed',
      chatTurnMaxReserveCredits: CHAT_TURN_CREDITS,
      creditBalance: await this.ledger.balance(em, caller.workspaceId, caller.mode),
      currency: 'usd',
      pricePer100CreditsUsd: 100 / CREDITS_PER_USD,
      researchRunBillingMode: 'fixed',
      researchRunPriceCredits: RESEARCH_RUN_CREDITS,
      topUpEndpoint: '/v1/billing/top-ups',
      topUpOptions: TOP_UP_OPTIONS,
      topUpScope: 'billing_write',
    };
  }

  /** In the call's transaction; a live session whose top-up is then not written just expires at Stripe, uncredited. */
  async createTopUp(em: EntityManager, caller: WorkspaceActor, input: TopUpInput) {
    const request = { workspaceId: caller.workspaceId, credits: input.usdQuantity * CREDITS_PER_USD, ...input };
    const sandbox = caller.mode === 'test';
    const session = sandbox ? sandboxSession(request) : await this.checkout.create(request);
    em.create(TopUpEntity, {
      id: session.id,
      workspaceId: caller.workspaceId,
      mode: caller.mode,
      usdQuantity: input.usdQuantity,
      credits: request.credits,
      status: sandbox ? 'complete' : 'open',
      sandbox,
      url: session.url,
      expiresAt: session.expiresAt ?? null,
      completedAt: sandbox ? new Date() : null,
    });
    await em.flush();
    if (sandbox) {
      await this.ledger.post(em, {
        workspaceId: caller.workspaceId,
        mode: caller.mode,
        delta: request.credits,
        kind: 'top_up',
        reference: session.id,
      });
    }
    return {
      id: session.id,
      url: session.url,
      status: sandbox ? ('complete' as const) : ('open' as const),
      sandbox,
      usdQuantity: input.usdQuantity,
      creditQuantity: request.credits,
      expiresAt: session.expiresAt?.toISOString() ?? null,
    };
  }

  /** Credits a paid session once, however often its events arrive; an unknown session credits nothing. In the caller's transaction. */
  async creditSession(tx: EntityManager, sessionId: string): Promise<number> {
    // One statement takes the row lock, so concurrent deliveries queue here; the ledger's reference credits once.
    const completed = await tx.nativeUpdate(
      TopUpEntity,
      { id: sessionId },
      { status: 'complete', completedAt: raw('coalesce("completed_at", now())') },
    );
    const topUp = completed > 0 ? await tx.findOneOrFail(TopUpEntity, { id: sessionId }, { refresh: true }) : null;
    if (!topUp) return 0;
    const posted = await this.ledger.post(tx, {
      workspaceId: topUp.workspaceId,
      mode: topUp.mode,
      delta: topUp.credits,
      kind: 'top_up',
      reference: sessionId,
    });
    return posted ? topUp.credits : 0;
  }
}
