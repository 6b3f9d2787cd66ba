import type { OperationContract } from '../operation.js';
import type { SubscriptionContract } from '../subscription.js';
import { researchAdminCreateWorkspace, researchAdminGrantCredits } from './admin.contract.js';
import { researchBilling, researchCreateTopUp, researchPing, researchStripeWebhook } from './billing.contract.js';
import { DISCOVERY_CONTRACTS } from './discovery.contract.js';
import { researchDocs, researchOpenApi } from './docs.contract.js';
import { researchThreadEvents, researchThreadWatch } from './events.contract.js';
import { researchHealth } from './health.contract.js';
import { researchApiKeys, researchCreateApiKey, researchRevokeApiKey, researchRotateApiKey } from './keys.contract.js';
import {
  researchAppendMessage,
  researchCreateThread,
  researchGetThread,
  researchRunReport,
  researchSendMessage,
  researchStartRun,
  researchThread,
  researchThreads,
  researchWaitForReply,
} from './threads.contract.js';
import { threadUpdated } from './thread-updated.contract.js';
import { WORKSPACE_CONTRACTS } from './workspace.contract.js';

/** Every operation of the research service (seed 001, part A, Variant A). */
export const RESEARCH_CONTRACTS: readonly OperationContract[] = [
  researchHealth,
  researchOpenApi,
  researchDocs,
  ...DISCOVERY_CONTRACTS,
  researchPing,
  researchBilling,
  researchCreateTopUp,
  researchStripeWebhook,
  researchApiKeys,
  researchCreateApiKey,
  researchRotateApiKey,
  researchRevokeApiKey,
  researchThreads,
  researchThread,
  researchCreateThread,
  researchAppendMessage,
  researchSendMessage,
  researchStartRun,
  researchRunReport,
  researchGetThread,
  researchWaitForReply,
  researchThreadEvents,
  researchThreadWatch,
  researchAdminCreateWorkspace,
  researchAdminGrantCredits,
  ...WORKSPACE_CONTRACTS,
];

export const RESEARCH_SUBSCRIPTIONS: readonly SubscriptionContract[] = [threadUpdated];
