import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import { CHAT_TURN_CREDITS, CREDITS_PER_USD, RESEARCH_RUN_CREDITS, TOP_UP_OPTIONS } from '../../../contracts/research/account-types.js';
import type { researchCreateTopUp } from '../../../contracts/research/billing.contract.js';
import type { WorkspaceActor } from '../access/workspace-actor.js';
import { sandboxSession, type StripeCheckout } from './checkout.js';
import type { CreditLedger } from './credit-ledger.js';

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

  async createTopUp(em: EntityManager, caller: WorkspaceActor, input: TopUpInput) {
    const request = { workspaceId: caller.workspaceId, credits: input.usdQuantity * CREDITS_PER_USD, ...input };
    const sandbox = caller.mode === 'test';
    const session = sandbox ? sandboxSession(request) : await this.checkout.create(request);
    await em.transactional(async (work) => {
      const tx = work as EntityManager;
      await tx.execute(
        `insert into "research"."top_up" ("id", "workspace_id", "mode", "usd_quantity", "credits", "status", "sandbox", "url", "expires_at", "completed_at")
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          session.id,
          caller.workspaceId,
          caller.mode,
          input.usdQuantity,
          request.credits,
          sandbox ? 'complete' : 'open',
          sandbox,
          session.url,
          session.expiresAt,
          sandbox ? new Date() : null,
        ],
      );
      if (sandbox) {
        await this.ledger.post(tx, {
          workspaceId: caller.workspaceId,
          mode: caller.mode,
          delta: request.credits,
          kind: 'top_up',
          reference: session.id,
        });
      }
    });
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

  /** Credits a paid session once, however often its events arrive; an unknown session credits nothing. */
  async creditSession(em: EntityManager, sessionId: string): Promise<number> {
    return em.transactional(async (work) => {
      const tx = work as EntityManager;
      const [topUp] = await tx.execute<Array<{ workspace_id: string; mode: 'live' | 'test'; credits: number }>>(
        `update "research"."top_up" set "status" = 'complete', "completed_at" = coalesce("completed_at", now())
         where "id" = ? returning "workspace_id", "mode", "credits"`,
        [sessionId],
      );
      if (!topUp) return 0;
      const posted = await this.ledger.post(tx, {
        workspaceId: topUp.workspace_id,
        mode: topUp.mode,
        delta: topUp.credits,
        kind: 'top_up',
        reference: sessionId,
      });
      return posted ? topUp.credits : 0;
    });
  }
}
