import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { RESEARCH_SCOPES, type ResearchScope } from '../../../contracts/access.js';
import type { ContractInput } from '../../../contracts/operation.js';
import type { KeyMode } from '../../../contracts/research/account-types.js';
import type { Logger } from '../../../runtime/logger.js';
import { withAfterCommit } from '../../shared/after-commit.js';
import type { researchAdminCreateWorkspace, researchAdminGrantCredits } from '../../../contracts/research/admin.contract.js';
import { newId } from '../access/key-secret.js';
import { CreditBalanceEntity } from '../billing/credit.entity.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import type { ApiKeyService, IssuedKey } from '../keys/api-key.service.js';
import { ResearchError } from '../research.errors.js';
import { isoTime, type DbTime } from '../time.js';
import { WorkspaceEntity, type Workspace } from './workspace.entity.js';

export interface WorkspaceData {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface NewWorkspace {
  readonly name: string;
  readonly kind: 'admin' | 'demo';
  readonly keyName: string;
  readonly keyMode: KeyMode;
  readonly scopes: readonly ResearchScope[];
}

/** The person an access token names: a subject is unique within its issuer only. */
export interface WorkspaceOwner {
  readonly issuer: string;
  readonly subject: string;
  /** What to call a new workspace (the person's name or e-mail address). */
  readonly displayName: string;
}

type WorkspaceRow = { id: string; name: string; createdAt: DbTime };

/** A signed-in person's workspace, with the second up to which their access tokens are refused (their last sign-out). */
export interface OwnedWorkspace extends WorkspaceData {
  /** Seconds since the epoch, as a token's `iat`; null when they never signed out. */
  readonly signedOutSecond: number | null;
}

const ownedWorkspace = (workspace: Workspace): OwnedWorkspace => ({
  ...workspaceData(workspace),
  signedOutSecond: workspace.signedOutAt ? Math.floor(workspace.signedOutAt.getTime() / 1000) : null,
});

const workspaceData = (workspace: { id: string; name: string; createdAt: DbTime }): WorkspaceData => ({
  id: workspace.id,
  name: workspace.name,
  createdAt: isoTime(workspace.createdAt),
});

/**
 * Workspaces hold cases, credits (a balance per mode) and keys. One made by the admin or
 * the demo starts with one key, shown once; a signed-in user's is made by their first call,
 * keyless (they manage keys in the console), with the welcome credits configured.
 */
export class WorkspaceService {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly ledger: CreditLedger,
    /** Live credits a signed-in user's new workspace is granted (`RESEARCH_WELCOME_CREDITS`). */
    private readonly welcomeCredits = 0,
  ) {}

  /** Creates the workspace, its two balances and its first key, in the caller's transaction. */
  async create(em: EntityManager, request: NewWorkspace): Promise<{ workspace: WorkspaceData; apiKey: IssuedKey }> {
    const created = em.create(WorkspaceEntity, { id: newId('ws'), name: request.name, kind: request.kind });
    await em.flush();
    const workspace = workspaceData(created);
    await this.openBalances(em, workspace.id);
    const apiKey = await this.keys.issue(em, workspace.id, { name: request.keyName, scopes: request.scopes, mode: request.keyMode });
    return { workspace, apiKey };
  }

  /**
   * The workspace of a signed-in person, created by their first call. Two first calls at once
   * create one: the loser's insert waits on the owner's unique index, then finds the winner's.
   * Called by the guard, before any call's transaction: it commits the new workspace itself.
   */
  async forOwner(em: EntityManager, logger: Logger, owner: WorkspaceOwner): Promise<OwnedWorkspace> {
    const found = await this.owned(em, owner);
    if (found) return found;
    return withAfterCommit(em, logger, async (tx) => {
      // raw SQL: `on conflict do nothing` lets the loser of two first calls find the winner's workspace.
      const [row] = await tx.execute<WorkspaceRow[]>(
        `insert into "research"."workspace" ("id", "name", "kind", "owner_issuer", "owner_subject") values (?, ?, 'user', ?, ?)
         on conflict ("owner_issuer", "owner_subject") do nothing returning "id", "name", "created_at" as "createdAt"`,
        [newId('ws'), owner.displayName.slice(0, 200) || 'Workspace', owner.issuer, owner.subject],
      );
      if (!row) return (await this.owned(tx, owner))!;
      await this.openBalances(tx, row.id);
      if (this.welcomeCredits > 0) {
        await this.ledger.post(tx, {
          workspaceId: row.id,
          mode: 'live',
          delta: this.welcomeCredits,
          kind: 'grant',
          reference: null,
          reason: 'welcome',
        });
      }
      return { ...workspaceData(row), signedOutSecond: null };
    });
  }

  /** Refuses the person's access tokens issued up to this second, from their next call on. */
  async signOut(em: EntityManager, workspaceId: string): Promise<{ signedOut: boolean }> {
    await em.nativeUpdate(WorkspaceEntity, { id: workspaceId }, { signedOutAt: raw('now()') });
    return { signedOut: true };
  }

  async read(em: EntityManager, workspaceId: string): Promise<WorkspaceData> {
    const workspace = await em.findOne(WorkspaceEntity, { id: workspaceId });
    if (!workspace) throw ResearchError.workspaceNotFound();
    return workspaceData(workspace);
  }

  /** The person's workspace, if their first call made it already. */
  async owned(em: EntityManager, owner: Omit<WorkspaceOwner, 'displayName'>): Promise<OwnedWorkspace | undefined> {
    const workspace = await em.findOne(WorkspaceEntity, { ownerIssuer: owner.issuer, ownerSubject: owner.subject }, { refresh: true });
    return workspace ? ownedWorkspace(workspace) : undefined;
  }

  private async openBalances(em: EntityManager, workspaceId: string): Promise<void> {
    em.create(CreditBalanceEntity, { workspaceId, mode: 'live', balance: 0 });
    em.create(CreditBalanceEntity, { workspaceId, mode: 'test', balance: 0 });
    await em.flush();
  }

  /** `POST /admin/research/workspaces`: the first key may manage keys, and nothing else. */
  adminCreate(em: EntityManager, input: ContractInput<typeof researchAdminCreateWorkspace>) {
    return this.create(em, {
      name: input.name,
      kind: 'admin',
      keyName: 'First key',
      keyMode: input.mode,
      scopes: ['api_keys_admin'],
    });
  }

  async grant(em: EntityManager, input: ContractInput<typeof researchAdminGrantCredits>) {
    const posted = await this.ledger.post(em, {
      workspaceId: input.workspaceId,
      mode: input.mode,
      delta: input.credits,
      kind: 'grant',
      reference: null,
      reason: input.reason,
    });
    if (!posted) throw ResearchError.workspaceNotFound();
    return {
      entryId: posted.entryId,
      workspaceId: input.workspaceId,
      mode: input.mode,
      credits: input.credits,
      reason: input.reason,
      creditBalance: posted.balance,
    };
  }
}

/** Every scope: the demo key may try everything. */
export const ALL_SCOPES: readonly ResearchScope[] = RESEARCH_SCOPES;
