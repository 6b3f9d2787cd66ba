import type { EntityManager } from '@mikro-orm/postgresql';
import { researchAdminCreateWorkspace, researchAdminGrantCredits } from '../../contracts/research/admin.contract.js';
import { researchBilling, researchCreateTopUp, researchPing, researchStripeWebhook } from '../../contracts/research/billing.contract.js';
import { researchThreadEvents, researchThreadWatch } from '../../contracts/research/events.contract.js';
import { researchHealth } from '../../contracts/research/health.contract.js';
import {
  researchApiKeys,
  researchCreateApiKey,
  researchRevokeApiKey,
  researchRotateApiKey,
} from '../../contracts/research/keys.contract.js';
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
} from '../../contracts/research/threads.contract.js';
import { researchWorkspace, researchWorkspaceSignOut } from '../../contracts/research/workspace.contract.js';
import { implement, implementStream, type Implementation } from '../shared/contracts/implementation.js';
import type { Services } from '../shared/subgraph.js';
import type { WorkspaceActor } from './access/workspace-actor.js';
import { BillingService } from './billing/billing.service.js';
import { StripeWebhook } from './billing/stripe-webhook.js';
import { ResearchHealthService } from './health/research-health.service.js';
import { ApiKeyService } from './keys/api-key.service.js';
import { ResearchRunService } from './runs/research-run.service.js';
import { ThreadService } from './threads/thread.service.js';
import { threadTopic } from './threads/thread-events.js';
import { ThreadStore } from './threads/thread.store.js';
import { WorkspaceService } from './workspaces/workspace.service.js';

/** Route groups this service supports, as `/v1/ping` names them. */
export const ROUTE_GROUPS = ['mcp', 'billing', 'threads'];

/**
 * Every research operation bound to its service method. An operation a key or a signed-in
 * user may call sees either caller as a workspace and a mode (`WorkspaceActor`).
 */
export function researchOperations(services: Services): Implementation[] {
  const keys = services.get(ApiKeyService);
  const billing = services.get(BillingService);
  const threads = services.get(ThreadService);
  const runs = services.get(ResearchRunService);
  const store = services.get(ThreadStore);
  const workspaces = services.get(WorkspaceService);
  const webhook = services.get(StripeWebhook);
  /** The grant of `threadUpdated`: the case's feed topic, when the caller may read the case. */
  const watch = async (em: EntityManager, caller: WorkspaceActor, threadId: string) => ({
    topic: threadTopic((await store.find(em, caller, threadId)).id),
  });
  return [
    implement(researchHealth, () => services.get(ResearchHealthService).check()),
    implement(researchPing, (_input, { caller }) => ({ grantedScopes: [...caller.scopes], ok: true, supportedRouteGroups: ROUTE_GROUPS })),
    implement(researchBilling, (_input, { ctx, caller }) => billing.billing(ctx.em, caller)),
    implement(researchCreateTopUp, (input, { ctx, caller }) => billing.createTopUp(ctx.em, caller, input)),
    implementStream(researchStripeWebhook, async function* (_input, { ctx }, _signal, body) {
      yield await webhook.receive(ctx.em, ctx.headers['stripe-signature'], body);
    }),
    implement(researchApiKeys, (_input, { ctx, caller }) => keys.list(ctx.em, caller)),
    implement(researchCreateApiKey, (input, { ctx, caller }) => keys.create(ctx.em, caller, input)),
    implement(researchRotateApiKey, (input, { ctx, caller }) => keys.rotate(ctx.em, caller, input.apiKeyId)),
    implement(researchRevokeApiKey, (input, { ctx, caller }) => keys.revoke(ctx.em, caller, input.apiKeyId)),
    implement(researchThreads, (input, { ctx, caller }) => threads.list(ctx.em, caller, input)),
    implement(researchThread, (input, { ctx, caller }) => threads.read(ctx.em, caller, input.threadId)),
    implement(researchCreateThread, (input, { ctx, caller }) => threads.accept(ctx.em, caller, undefined, input.message)),
    implement(researchAppendMessage, (input, { ctx, caller }) => threads.accept(ctx.em, caller, input.threadId, input.message)),
    implement(researchSendMessage, (input, { ctx, caller }) => threads.accept(ctx.em, caller, input.threadId, input.message)),
    implement(researchStartRun, (input, { ctx, caller }) => runs.start(ctx.em, caller, input.threadId, input.force)),
    implement(researchRunReport, (input, { ctx, caller }) => runs.report(ctx.em, caller, input.threadId, input.runId)),
    implement(researchGetThread, (input, { ctx, caller }) => threads.readWithReply(ctx.em, caller, input.threadId)),
    implement(researchWaitForReply, (input, { ctx, caller }) => threads.waitForReply(ctx.em, caller, input.threadId, input.timeoutSeconds)),
    implement(researchThreadEvents, (input, { ctx, caller }) => threads.events(ctx.em, caller, input)),
    implement(researchThreadWatch, (input, { ctx, caller }) => watch(ctx.em, caller, input.threadId)),
    implement(researchWorkspace, (_input, { ctx, caller }) => workspaces.read(ctx.em, caller.workspaceId)),
    implement(researchWorkspaceSignOut, (_input, { ctx, caller }) => workspaces.signOut(ctx.em, caller.workspaceId)),
    implement(researchAdminCreateWorkspace, (input, { ctx }) => workspaces.adminCreate(ctx.em, input)),
    implement(researchAdminGrantCredits, (input, { ctx }) => workspaces.grant(ctx.em, input)),
  ];
}
