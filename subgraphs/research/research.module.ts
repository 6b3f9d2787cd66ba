import { CONTRACTS } from '../../contracts/registry.js';
import { RESEARCH_FEED } from '../../contracts/research/events.contract.js';
import { EventPruner, pruneTopicFeed } from '../shared/events/event-retention.js';
import { AdminTokenCheck } from '../shared/admin-token.js';
import { publicGuard } from '../shared/contracts/public-guard.js';
import type { SubgraphModule } from '../shared/subgraph.js';
import { researchWrites } from './access/research-writes.js';
import { ResearchKeyGuard } from './access/research-key-guard.js';
import { WorkspaceUserGuard } from './access/workspace-user-guard.js';
import { AssistantTurns } from './assistant/assistant-turns.js';
import { BillingService } from './billing/billing.service.js';
import { StripeCheckout, stripeClient } from './billing/checkout.js';
import { CreditLedger } from './billing/credit-ledger.js';
import { StripeWebhook } from './billing/stripe-webhook.js';
import { ResearchHealthService } from './health/research-health.service.js';
import { ApiKeyService } from './keys/api-key.service.js';
import { researchMigrations } from './migrations/index.js';
import { Providers } from './providers.js';
import { ASSISTANT_TURNS, RESEARCH_RUNS } from './queues.js';
import { ResearchError } from './research.errors.js';
import { RESEARCH_ENTITIES } from './research-entities.js';
import { researchOperations } from './research.operations.js';
import { ResearchRunService } from './runs/research-run.service.js';
import { ResearchRuns } from './runs/research-runs.consumer.js';
import { ThreadService } from './threads/thread.service.js';
import { ThreadStore } from './threads/thread.store.js';
import { createDemoWorkspace } from './workspaces/demo-workspace.js';
import { WorkspaceService } from './workspaces/workspace.service.js';
import { AccountWorkspaces } from './workspaces/account-workspaces.js';
import { AccountTokens } from '../shared/account-token.js';
import { WorkspaceAccount } from '../../contracts/research/account-types.js';

export const researchModule: SubgraphModule = {
  name: 'research',
  database: { schema: 'research', entities: RESEARCH_ENTITIES, migrations: researchMigrations },
  contracts: CONTRACTS.research,
  createServices(runtime) {
    const { config, logger, queues, orm } = runtime;
    const ledger = new CreditLedger();
    const store = new ThreadStore();
    const keys = new ApiKeyService();
    const providers = new Providers(config, logger.child({ component: 'providers' }));
    const billing = new BillingService(ledger, new StripeCheckout(stripeClient(config)));
    const workspaces = new WorkspaceService(keys, ledger, config.researchWelcomeCredits);
    queues.consume(ASSISTANT_TURNS, new AssistantTurns(orm, store, ledger, providers, logger.child({ component: 'assistant-turns' })));
    queues.consume(RESEARCH_RUNS, new ResearchRuns(orm, store, ledger, providers, logger.child({ component: 'research-runs' })));
    return [
      ledger,
      store,
      keys,
      billing,
      new ResearchKeyGuard(),
      new WorkspaceUserGuard(config, runtime.origin, workspaces),
      new AdminTokenCheck(config.adminToken, () => ResearchError.adminUnauthorized()),
      new ResearchHealthService(runtime),
      new AccountWorkspaces(new AccountTokens(runtime.origin), config, runtime.origin),
      workspaces,
      new ThreadService(store, ledger, queues, logger, providers),
      new ResearchRunService(store, ledger, queues, logger, providers),
      new StripeWebhook(config.stripeWebhookSecret, billing, logger.child({ component: 'stripe-webhook' })),
      new EventPruner(
        () => pruneTopicFeed(orm.em.fork(), RESEARCH_FEED, config.outboxRetentionDays),
        logger.child({ component: 'event-retention' }),
      ),
    ];
  },
  entities: [WorkspaceAccount],
  bind: (services) => ({
    implementations: researchOperations(services),
    fields: services.get(AccountWorkspaces).fields(),
    guards: {
      public: publicGuard,
      researchKey: services.get(ResearchKeyGuard),
      researchUser: services.get(WorkspaceUserGuard),
      adminToken: services.get(AdminTokenCheck),
    },
    around: researchWrites,
  }),
  async onReady(runtime, services) {
    services.get(EventPruner).start();
    if (!runtime.config.demoResearch) return;
    const logger = runtime.logger.child({ component: 'first-start' });
    await createDemoWorkspace(runtime.orm.em.fork(), services.get(WorkspaceService), services.get(CreditLedger), logger);
  },
  onClose: (services) => services.get(EventPruner).stop(),
};
