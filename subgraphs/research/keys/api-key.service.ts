import type { EntityManager } from '@mikro-orm/postgresql';
import type { ResearchScope } from '../../../contracts/access.js';
import type { ContractInput } from '../../../contracts/operation.js';
import type { ApiKeyData, KeyMode } from '../../../contracts/research/account-types.js';
import type { researchCreateApiKey } from '../../../contracts/research/keys.contract.js';
import type { WorkspaceActor } from '../access/workspace-actor.js';
import { newId, newKeySecret } from '../access/key-secret.js';
import { ResearchError } from '../research.errors.js';
import { API_KEY_COLUMNS, apiKeyView, type ApiKeyRow } from './api-key.views.js';

export interface IssuedKey extends ApiKeyData {
  readonly key: string;
}

export interface KeyRequest {
  readonly name: string;
  readonly scopes: readonly ResearchScope[];
  readonly mode: KeyMode;
}

/** Keys of a workspace: issued with their secret once, rotated (same id, new secret) or revoked at once. */
export class ApiKeyService {
  async issue(em: EntityManager, workspaceId: string, request: KeyRequest): Promise<IssuedKey> {
    const secret = newKeySecret(request.mode);
    const [row] = await em.execute<ApiKeyRow[]>(
      `insert into "research"."api_key" ("id", "workspace_id", "name", "key_hash", "prefix", "mode", "scopes")
       values (?, ?, ?, ?, ?, ?, string_to_array(?, ',')) returning ${API_KEY_COLUMNS}`,
      [newId('key'), workspaceId, request.name, secret.hash, secret.prefix, request.mode, request.scopes.join(',')],
    );
    return { ...apiKeyView(row!), key: secret.key };
  }

  async list(em: EntityManager, caller: WorkspaceActor): Promise<{ apiKeys: ApiKeyData[] }> {
    const rows = await em.execute<ApiKeyRow[]>(
      `select ${API_KEY_COLUMNS} from "research"."api_key" where "workspace_id" = ? order by "created_at" desc, "id" desc`,
      [caller.workspaceId],
    );
    return { apiKeys: rows.map(apiKeyView) };
  }

  create(em: EntityManager, caller: WorkspaceActor, input: ContractInput<typeof researchCreateApiKey>): Promise<IssuedKey> {
    return this.issue(em, caller.workspaceId, { name: input.name, scopes: input.scopes, mode: input.mode ?? caller.mode });
  }

  /** A new secret for the key; the old one is unknown from this commit on. */
  async rotate(em: EntityManager, caller: WorkspaceActor, apiKeyId: string): Promise<IssuedKey> {
    const current = await this.find(em, caller, apiKeyId);
    const secret = newKeySecret(current.mode);
    const [row] = await em.execute<ApiKeyRow[]>(
      `update "research"."api_key" set "key_hash" = ?, "prefix" = ?, "rotated_at" = now()
       where "id" = ? and "workspace_id" = ? and "revoked_at" is null returning ${API_KEY_COLUMNS}`,
      [secret.hash, secret.prefix, apiKeyId, caller.workspaceId],
    );
    if (!row) throw ResearchError.apiKeyAlreadyRevoked();
    return { ...apiKeyView(row), key: secret.key };
  }

  async revoke(em: EntityManager, caller: WorkspaceActor, apiKeyId: string): Promise<ApiKeyData> {
    await this.find(em, caller, apiKeyId);
    const [row] = await em.execute<ApiKeyRow[]>(
      `update "research"."api_key" set "revoked_at" = now()
       where "id" = ? and "workspace_id" = ? and "revoked_at" is null returning ${API_KEY_COLUMNS}`,
      [apiKeyId, caller.workspaceId],
    );
    if (!row) throw ResearchError.apiKeyAlreadyRevoked();
    return apiKeyView(row);
  }

  private async find(em: EntityManager, caller: WorkspaceActor, apiKeyId: string): Promise<ApiKeyRow> {
    const [row] = await em.execute<ApiKeyRow[]>(
      `select ${API_KEY_COLUMNS} from "research"."api_key" where "id" = ? and "workspace_id" = ?`,
      [apiKeyId, caller.workspaceId],
    );
    if (!row) throw ResearchError.apiKeyNotFound();
    if (row.revoked_at) throw ResearchError.apiKeyAlreadyRevoked();
    return row;
  }
}
