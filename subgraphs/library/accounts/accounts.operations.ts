import {
  libraryAccountKeys,
  libraryCreateAccountKey,
  libraryMe,
  libraryPlans,
  libraryRegister,
  libraryUsage,
} from '../../../contracts/library/accounts.contract.js';
import { AccountKeys } from './account-keys.js';
import {
  libraryAdminCreateKey,
  libraryAdminSetKeyPlan,
  libraryAdminSetKeyRpd,
  libraryAdminSetKeyStatus,
  libraryAdminStats,
} from '../../../contracts/library/admin.contract.js';
import { PLAN_NAMES, PLANS } from '../../../contracts/library/plans.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { AccountService } from './account.service.js';
import { AddressLimit } from './address-limit.js';
import { AdminService } from './admin.service.js';
import { keyData } from './key-views.js';
import { RegistrationService } from './registration.service.js';

/** Plans, registration, a key's own data and key administration. */
export function accountOperations(services: Services): Implementation[] {
  const registration = services.get(RegistrationService);
  const account = services.get(AccountService);
  const admin = services.get(AdminService);
  const addresses = services.get(AddressLimit);
  const accountKeys = services.get(AccountKeys);
  return [
    implement(libraryPlans, async (_input, { ctx }) => {
      await addresses.admit(ctx);
      return PLAN_NAMES.map((name) => PLANS[name]);
    }),
    implement(libraryRegister, async (input, { ctx }) => {
      await addresses.admit(ctx);
      return registration.register(ctx, { email: input.email ?? '', org: input.org ?? null });
    }),
    implement(libraryMe, async (_input, { ctx, caller }) => {
      const overview = await account.overview(ctx, caller);
      const { usedToday, usedThisMinute, rateLimit } = overview;
      return { key: keyData(overview.key), usedToday, usedThisMinute, minute: rateLimit.minute, day: rateLimit.day };
    }),
    implement(libraryUsage, (input, { ctx, caller }) => account.report(ctx, caller, input.days)),
    implement(libraryAccountKeys, (_input, { ctx, caller }) => accountKeys.list(ctx, caller)),
    implement(libraryCreateAccountKey, (input, { ctx, caller }) => accountKeys.create(ctx, caller, input.org)),
    implement(libraryAdminCreateKey, (input, { ctx }) => admin.createKey(ctx, input)),
    implement(libraryAdminSetKeyPlan, async (input, { ctx }) => keyData(await admin.setPlan(ctx, input.keyId, input.plan))),
    implement(libraryAdminSetKeyRpd, async (input, { ctx }) => keyData(await admin.setRpd(ctx, input.keyId, input.rpd))),
    implement(libraryAdminSetKeyStatus, async (input, { ctx }) => keyData(await admin.setStatus(ctx, input.keyId, input.status))),
    implement(libraryAdminStats, async (_input, { ctx }) => {
      const stats = await admin.stats(ctx);
      return { ...stats, topKeys: stats.topKeys.map((entry) => ({ key: keyData(entry.key), callsToday: entry.callsToday })) };
    }),
  ];
}
