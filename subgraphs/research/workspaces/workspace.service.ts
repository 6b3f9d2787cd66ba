import type { EntityManager } from '@mikro-orm/postgresql';
import { RESEARCH_SCOPES, type ResearchScope } from '../../../contracts/access.js';
import type { KeyMode } from '../../../contracts/research/account-types.js';
import { newId } from '../access/key-secret.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import type { ApiKeyService, IssuedKey } from '../keys/api-key.service.js';
import { ResearchError } from '../research.errors.js';
import { isoTime, type DbTime } from '../time.js';

export interface WorkspaceData {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface NewWorkspace {
  readonly name: string;
  readonly kind: 'admin' | 'demo' | 'user';
  readonly keyName: string;
  readonly keyMode: KeyMode;
  readonly scopes: readonly ResearchScope[];
}

/** Workspaces hold cases, credits (a balance per mode) and keys; each starts with one key, shown once. */
export class WorkspaceService {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly ledger: CreditLedger,
  ) {}

  /** Creates the workspace, its two balances and its first key, in the caller's transaction. */
  async create(em: EntityManager, request: NewWorkspace): Promise<{ workspace: WorkspaceData; apiKey: IssuedKey }> {
    const [row] = await em.execute<Array<{ id: string; name: string; created_at: DbTime }>>(
      `insert into "research"."workspace" ("id", "name", "kind") values (?, ?, ?) returning "id", "name", "created_at"`,
      [newId('ws'), request.name, request.kind],
    );
    const workspace = { id: row!.id, name: row!.name, createdAt: isoTime(row!.created_at) };
    await em.execute(`insert into "research"."credit_balance" ("workspace_id", "mode") values (?, 'live'), (?, 'test')`, [
      workspace.id,
      workspace.id,
    ]);
    const apiKey = await this.keys.issue(em, workspace.id, { name: request.keyName, scopes: request.scopes, mode: request.keyMode });
    return { workspace, apiKey };
  }

  /** `POST /admin/research/workspaces`: the first key may manage keys, and nothing else. */
  adminCreate(em: EntityManager, input: { name: string; mode: KeyMode }) {
    return em.transactional((tx) =>
      this.create(tx as EntityManager, {
        name: input.name,
        kind: 'admin',
        keyName: 'First key',
        keyMode: input.mode,
        scopes: ['api_keys_admin'],
      }),
    );
  }

  async grant(em: EntityManager, input: { workspaceId: string; credits: number; reason: string; mode: KeyMode }) {
    const posted = await em.transactional((tx) =>
      this.ledger.post(tx as EntityManager, {
        workspaceId: input.workspaceId,
        mode: input.mode,
        delta: input.credits,
        kind: 'grant',
        reference: null,
        reason: input.reason,
      }),
    );
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
