import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Workspace, WorkspaceAccount } from '../../../contracts/research/account-types.js';
import type { Config } from '../../../runtime/config.js';
import { CreditBalanceEntity } from '../billing/credit.entity.js';
import { workspaceResource } from '../../../runtime/workspace-resource.js';
import type { AccountCaller, AccountTokens } from '../../shared/account-token.js';
import type { SubgraphContext } from '../../shared/context.js';
import { implementFields, type FieldImplementation } from '../../shared/contracts/implementation.js';
import { AccessTokenError } from '../../shared/oidc-token-verifier.js';
import type { PublicOrigin } from '../../shared/subgraph.js';
import { ResearchError } from '../research.errors.js';
import { WorkspaceEntity } from './workspace.entity.js';
import { isoTime, type DbTime } from '../time.js';

/** A workspace as the account's field loads it: its live balance and owner come with it. */
interface AccountWorkspace {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly creditBalance: number;
  readonly ownerAccountId: string;
}

type AccountRow = { id: string; name: string; created_at: DbTime; owner_subject: string; balance: number | string | null };

interface Loaders {
  /** Workspaces by the account that owns them (its id is the subject of our provider's tokens). */
  readonly byAccount: DataLoader<string, AccountWorkspace | null>;
  readonly owners: DataLoader<string, string | null>;
  readonly balances: DataLoader<string, number | null>;
}

const literal = (values: readonly string[]) => `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/**
 * Research's part of the Qantara account (`User`): the workspace a person opened by signing
 * in through our OpenID provider (owner issuer ours, owner subject the account's id), and a
 * workspace's owner and balance. Every field of one request is answered by one query per
 * kind (a DataLoader per request), so a list of accounts costs one query, not one each.
 */
export class AccountWorkspaces {
  private readonly requests = new WeakMap<SubgraphContext, Loaders>();

  constructor(
    private readonly accounts: AccountTokens,
    private readonly config: Config,
    private readonly origin: PublicOrigin,
  ) {}

  /** The field resolvers research binds. */
  fields(): FieldImplementation[] {
    return [
      implementFields(WorkspaceAccount, { researchWorkspace: (account, _args, ctx) => this.workspaceOf(account.id, ctx) }),
      implementFields(Workspace, {
        creditBalance: (workspace, _args, ctx) => this.creditBalance(workspace, ctx),
        owner: (workspace, _args, ctx) => this.owner(workspace, ctx),
      }),
    ];
  }

  /** `User.researchWorkspace`: shown to the account itself and the platform super-admin. */
  async workspaceOf(accountId: string, ctx: SubgraphContext): Promise<AccountWorkspace | null> {
    const caller = await this.caller(ctx);
    if (caller.userId !== accountId && !caller.superAdmin) throw ResearchError.notYourWorkspace();
    return this.loaders(ctx).byAccount.load(accountId);
  }

  private creditBalance(workspace: { id: string }, ctx: SubgraphContext): Promise<number | null> | number {
    const known = (workspace as Partial<AccountWorkspace>).creditBalance;
    return typeof known === 'number' ? known : this.loaders(ctx).balances.load(workspace.id);
  }

  private async owner(workspace: { id: string }, ctx: SubgraphContext) {
    const known = (workspace as Partial<AccountWorkspace>).ownerAccountId;
    const accountId = known ?? (await this.loaders(ctx).owners.load(workspace.id));
    return accountId ? { __typename: 'User', id: accountId } : null;
  }

  private async caller(ctx: SubgraphContext): Promise<AccountCaller> {
    try {
      return await this.accounts.caller(ctx);
    } catch (error) {
      if (error instanceof AccessTokenError && error.reason === 'invalid_token') throw ResearchError.invalidAccountToken(error.message);
      ctx.logger.warn({ err: error }, 'the account token’s keys could not be fetched');
      throw ResearchError.identityProviderUnavailable(error);
    }
  }

  private ownIssuer(): string {
    return workspaceResource(this.config, this.origin()).ownIssuer;
  }

  private loaders(ctx: SubgraphContext): Loaders {
    let loaders = this.requests.get(ctx);
    if (loaders) return loaders;
    const em = ctx.em as EntityManager;
    loaders = {
      byAccount: new DataLoader((ids: readonly string[]) => this.loadByAccount(em, ids)),
      owners: new DataLoader((ids: readonly string[]) => this.loadOwners(em, ids)),
      balances: new DataLoader((ids: readonly string[]) => this.loadBalances(em, ids)),
    };
    this.requests.set(ctx, loaders);
    return loaders;
  }

  private async loadByAccount(em: EntityManager, accountIds: readonly string[]): Promise<Array<AccountWorkspace | null>> {
    // raw SQL: the account's workspaces with their live balances in one left join, for a whole batch of accounts.
    const rows = await em.execute<AccountRow[]>(
      `select w."id", w."name", w."created_at", w."owner_subject", b."balance"
       from "research"."workspace" w left join "research"."credit_balance" b on b."workspace_id" = w."id" and b."mode" = 'live'
       where w."owner_issuer" = ? and w."owner_subject" = any(?::text[])`,
      [this.ownIssuer(), literal(accountIds)],
    );
    const bySubject = new Map(
      rows.map((row) => [
        row.owner_subject,
        {
          id: row.id,
          name: row.name,
          createdAt: isoTime(row.created_at),
          creditBalance: Number(row.balance ?? 0),
          ownerAccountId: row.owner_subject,
        },
      ]),
    );
    return accountIds.map((id) => bySubject.get(id) ?? null);
  }

  private async loadOwners(em: EntityManager, workspaceIds: readonly string[]): Promise<Array<string | null>> {
    const rows = await em.find(
      WorkspaceEntity,
      { id: { $in: [...workspaceIds] } },
      { fields: ['id', 'ownerIssuer', 'ownerSubject'], disableIdentityMap: true },
    );
    const ours = this.ownIssuer();
    const byId = new Map(rows.map((row) => [row.id, row.ownerIssuer === ours ? row.ownerSubject : null]));
    return workspaceIds.map((id) => byId.get(id) ?? null);
  }

  private async loadBalances(em: EntityManager, workspaceIds: readonly string[]): Promise<Array<number | null>> {
    const rows = await em.find(
      CreditBalanceEntity,
      { mode: 'live', workspaceId: { $in: [...workspaceIds] } },
      { fields: ['workspaceId', 'balance'], disableIdentityMap: true },
    );
    const byId = new Map(rows.map((row) => [row.workspaceId, row.balance]));
    return workspaceIds.map((id) => byId.get(id) ?? null);
  }
}
