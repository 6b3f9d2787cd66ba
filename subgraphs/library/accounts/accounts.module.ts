import type { SubgraphRuntime } from '../../shared/subgraph.js';
import { AccountService } from './account.service.js';
import { LibraryAccess } from './access.service.js';
import { AddressLimit } from './address-limit.js';
import { AdminService } from './admin.service.js';
import { AdminTokenCheck } from '../../shared/admin-token.js';
import { AccountsError } from './accounts.errors.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { AddressWindowEntity, ApiKeyUsageEntity, ApiKeyWindowEntity, RegistrationCountEntity } from './counters.entity.js';
import { RegistrationService } from './registration.service.js';
import { AccountKeys } from './account-keys.js';
import { AccountTokens } from '../../shared/account-token.js';
import { UsageRepository } from './usage.repository.js';
import type { Clock } from './windows.js';

/** What the library module takes from accounts: entities and services. */
export const accountsEntities = [ApiKeyEntity, ApiKeyWindowEntity, ApiKeyUsageEntity, AddressWindowEntity, RegistrationCountEntity];

export interface AccountsServiceOptions {
  readonly clock?: Clock;
}

/** The accounts services, once per process; `LibraryAccess` and `AdminTokenCheck` are the guards of library operations. */
export function createAccountsServices(runtime: SubgraphRuntime, options: AccountsServiceOptions = {}): object[] {
  const usage = new UsageRepository();
  const clock = options.clock;
  const registration = new RegistrationService(usage, { clock });
  return [
    new LibraryAccess(usage, { clock }),
    new AddressLimit({ clock }),
    new AdminTokenCheck(runtime.config.adminToken, () => AccountsError.adminUnauthorized()),
    registration,
    new AccountKeys(new AccountTokens(runtime.origin), registration, usage),
    new AccountService(usage, { clock }),
    new AdminService(usage, { clock }),
  ];
}
