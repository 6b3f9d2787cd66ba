import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { LibraryAccountAccess } from '../../../contracts/access.js';
import { LibraryAccount, type LibraryKeyData } from '../../../contracts/library/account-types.js';
import type { AccountCaller, AccountTokens } from '../../shared/account-token.js';
import type { SubgraphContext } from '../../shared/context.js';
import { implementFields, type FieldImplementation, type Guard } from '../../shared/contracts/implementation.js';
import { AccessTokenError } from '../../shared/oidc-token-verifier.js';
import { AccountsError } from './accounts.errors.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { keyData, keyView, type IssuedKey } from './key-views.js';
import type { RegistrationService } from './registration.service.js';
import type { UsageRepository } from './usage.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare module '../../shared/contracts/implementation.js' {
  interface Callers {
    libraryAccount: AccountCaller;
  }
}

/**
 * The library keys of a signed-in Qantara account: the guard of `/v1/me/keys` (the account's
 * sign-in access token, verified against operations' published keys), creating and listing
 * them, and the library's part of the `User` entity (`User.libraryKeys`), whose keys of one
 * request are read in one query whatever the number of accounts (a DataLoader per request).
 */
export class AccountKeys implements Guard<LibraryAccountAccess> {
  private readonly requests = new WeakMap<SubgraphContext, DataLoader<string, LibraryKeyData[]>>();

  constructor(
    private readonly accounts: AccountTokens,
    private readonly registration: RegistrationService,
    private readonly usage: UsageRepository,
  ) {}

  /** `/v1/me/keys` mints credentials: a token its holder signed out of is refused at once, not at its expiry. */
  admit(ctx: SubgraphContext): Promise<AccountCaller> {
    return this.caller(ctx, true);
  }

  async refuse(ctx: SubgraphContext): Promise<void> {
    await this.caller(ctx);
  }

  /** A free key owned by the account, within the registration's daily limits (its e-mail address and client address). */
  create(ctx: SubgraphContext, caller: AccountCaller, org: string | null | undefined): Promise<IssuedKey> {
    return this.registration.register(ctx, { email: caller.email ?? '', org: org ?? null, ownerUserId: caller.userId });
  }

  list(ctx: SubgraphContext, caller: AccountCaller): Promise<LibraryKeyData[]> {
    return this.loader(ctx).load(caller.userId);
  }

  /** The field resolvers the library binds. */
  fields(): FieldImplementation[] {
    return [implementFields(LibraryAccount, { libraryKeys: (account, _args, ctx) => this.keysOf(account.id, ctx) })];
  }

  /** `User.libraryKeys`: shown to the account itself and the platform super-admin. */
  private async keysOf(accountId: string, ctx: SubgraphContext): Promise<LibraryKeyData[]> {
    const caller = await this.caller(ctx);
    if (caller.userId !== accountId && !caller.superAdmin) {
      throw AccountsError.notYourKeys();
    }
    return this.loader(ctx).load(accountId);
  }

  private async caller(ctx: SubgraphContext, confirmed = false): Promise<AccountCaller> {
    try {
      return await (confirmed ? this.accounts.confirmed(ctx) : this.accounts.caller(ctx));
    } catch (error) {
      if (error instanceof AccessTokenError && error.reason === 'invalid_token') {
        throw AccountsError.invalidAccountToken(error.message);
      }
      ctx.logger.warn({ err: error }, 'the account token’s keys could not be fetched');
      throw AccountsError.accountUnavailable(error);
    }
  }

  private loader(ctx: SubgraphContext): DataLoader<string, LibraryKeyData[]> {
    let loader = this.requests.get(ctx);
    if (!loader) {
      loader = new DataLoader((ids: readonly string[]) => this.load(ctx.em as EntityManager, ids));
      this.requests.set(ctx, loader);
    }
    return loader;
  }

  private async load(em: EntityManager, accountIds: readonly string[]): Promise<LibraryKeyData[][]> {
    // Only an account id can own a key; anything else would fail the whole batch's uuid comparison.
    const wanted = accountIds.filter((id) => UUID.test(id));
    const keys = wanted.length === 0 ? [] : await em.find(ApiKeyEntity, { ownerUserId: { $in: wanted } }, { orderBy: { id: 'asc' } });
    const lastUsed = await this.usage.lastUsedAtOf(
      em,
      keys.map((key) => key.id),
    );
    const byAccount = new Map<string, LibraryKeyData[]>(accountIds.map((id) => [id, []]));
    for (const key of keys) byAccount.get(key.ownerUserId!)?.push(keyData(keyView(key, lastUsed.get(key.id) ?? null)));
    return accountIds.map((id) => byAccount.get(id)!);
  }
}
