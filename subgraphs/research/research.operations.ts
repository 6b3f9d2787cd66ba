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
import {
  type SignedIn,
  researchWorkspace,
  researchWorkspaceSignOut,
  researchWorkspaceApiKeys,
  researchWorkspaceAppendMessage,
  researchWorkspaceBilling,
  researchWorkspaceCreateApiKey,
  researchWorkspaceCreateThread,
  researchWorkspaceCreateTopUp,
  researchWorkspaceRevokeApiKey,
  researchWorkspaceRotateApiKey,
  researchWorkspaceRunReport,
  researchWorkspaceStartRun,
  researchWorkspaceThread,
  researchWorkspaceThreads,
  researchWorkspaceThreadWatch,
} from '../../contracts/research/workspace.contract.js';
import type { ResearchKeyAccess } from '../../contracts/access.js';
import type { ContractInput, OperationContract } from '../../contracts/operation.js';
import type { SubgraphContext } from '../shared/context.js';
import { implement, implementStream, type Handler, type Implementation } from '../shared/contracts/implementation.js';
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

/** A handler that sees its caller as a workspace and a mode only, whoever was admitted. */
type ActorHandler<C> = (
  input: ContractInput<C>,
  call: { readonly ctx: SubgraphContext; readonly caller: WorkspaceActor },
) => ReturnType<Handler<C>>;

/**
 * A key operation and its signed-in user's twin (`/api/chat/…`), served by one handler: both
 * admitted callers (a key, a person) are a workspace and a mode to it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function keyAndUser<C extends OperationContract<any, any, ResearchKeyAccess, any>>(
  key: C,
  user: SignedIn<C>,
  handler: ActorHandler<C>,
): Implementation[] {
  return [implement(key, handler as unknown as Handler<C>), implement(user, handler as never)];
}

/** Every research operation bound to its service method. */
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
    ...keyAndUser(researchBilling, researchWorkspaceBilling, (_input, { ctx, caller }) => billing.billing(ctx.em, caller)),
    ...keyAndUser(researchCreateTopUp, researchWorkspaceCreateTopUp, (input, { ctx, caller }) =>
      billing.createTopUp(ctx.em, caller, input),
    ),
    implementStream(researchStripeWebhook, async function* (_input, { ctx }, _signal, body) {
      yield await webhook.receive(ctx.em, ctx.headers['stripe-signature'], body);
    }),
    ...keyAndUser(researchApiKeys, researchWorkspaceApiKeys, (_input, { ctx, caller }) => keys.list(ctx.em, caller)),
    ...keyAndUser(researchCreateApiKey, researchWorkspaceCreateApiKey, (input, { ctx, caller }) => keys.create(ctx.em, caller, input)),
    ...keyAndUser(researchRotateApiKey, researchWorkspaceRotateApiKey, (input, { ctx, caller }) =>
      keys.rotate(ctx.em, caller, input.apiKeyId),
    ),
    ...keyAndUser(researchRevokeApiKey, researchWorkspaceRevokeApiKey, (input, { ctx, caller }) =>
      keys.revoke(ctx.em, caller, input.apiKeyId),
    ),
    ...keyAndUser(researchThreads, researchWorkspaceThreads, (input, { ctx, caller }) => threads.list(ctx.em, caller, input)),
    ...keyAndUser(researchThread, researchWorkspaceThread, (input, { ctx, caller }) => threads.read(ctx.em, caller, input.threadId)),
    ...keyAndUser(researchCreateThread, researchWorkspaceCreateThread, (input, { ctx, caller }) =>
      threads.accept(ctx.em, caller, undefined, input.message),
    ),
    ...keyAndUser(researchAppendMessage, researchWorkspaceAppendMessage, (input, { ctx, caller }) =>
      threads.accept(ctx.em, caller, input.threadId, input.message),
    ),
    implement(researchSendMessage, (input, { ctx, caller }) => threads.accept(ctx.em, caller, input.threadId, input.message)),
    ...keyAndUser(researchStartRun, researchWorkspaceStartRun, (input, { ctx, caller }) =>
      runs.start(ctx.em, caller, input.threadId, input.force),
    ),
    ...keyAndUser(researchRunReport, researchWorkspaceRunReport, (input, { ctx, caller }) =>
      runs.report(ctx.em, caller, input.threadId, input.runId),
    ),
    implement(researchGetThread, (input, { ctx, caller }) => threads.readWithReply(ctx.em, caller, input.threadId)),
    implement(researchWaitForReply, (input, { ctx, caller }) => threads.waitForReply(ctx.em, caller, input.threadId, input.timeoutSeconds)),
    implement(researchThreadEvents, (input, { ctx, caller }) => threads.events(ctx.em, caller, input)),
    ...keyAndUser(researchThreadWatch, researchWorkspaceThreadWatch, (input, { ctx, caller }) => watch(ctx.em, caller, input.threadId)),
    implement(researchWorkspace, (_input, { ctx, caller }) => workspaces.read(ctx.em, caller.workspaceId)),
    implement(researchWorkspaceSignOut, (_input, { ctx, caller }) => workspaces.signOut(ctx.em, caller.workspaceId)),
    implement(researchAdminCreateWorkspace, (input, { ctx }) => workspaces.adminCreate(ctx.em, input)),
    implement(researchAdminGrantCredits, (input, { ctx }) => workspaces.grant(ctx.em, input)),
  ];
}
