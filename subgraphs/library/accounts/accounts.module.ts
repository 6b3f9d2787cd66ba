import type { SubgraphRuntime } from '../../shared/subgraph.js';
import { AccountService } from './account.service.js';
import { LibraryAccess } from './access.service.js';
import { AccountsResolver } from './accounts.resolver.js';
import { AdminResolver } from './admin.resolver.js';
import { AdminService } from './admin.service.js';
import { AdminTokenCheck } from './admin-token.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { RegistrationService } from './registration.service.js';
import { UsageRepository } from './usage.repository.js';
import type { Clock } from './windows.js';

/** What the library module takes from accounts: entities, resolvers and services. */
export const accountsEntities = [ApiKeyEntity];
export const accountsResolvers = [AccountsResolver, AdminResolver] as const;

export interface AccountsServiceOptions {
  readonly clock?: Clock;
}

/** The accounts services, once per process; `LibraryAccess` is the one other resolvers inject. */
export function createAccountsServices(runtime: SubgraphRuntime, options: AccountsServiceOptions = {}): object[] {
  const usage = new UsageRepository();
  const clock = options.clock;
  return [
    new LibraryAccess(usage, { clock }),
    new RegistrationService(usage, { clock }),
    new AccountService(usage, { clock }),
    new AdminService(new AdminTokenCheck(runtime.config.adminToken), usage, { clock }),
  ];
}
