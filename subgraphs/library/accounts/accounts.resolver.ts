import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../shared/context.js';
import { AccountService } from './account.service.js';
import { LibraryAccess } from './access.service.js';
import {
  LibraryIssuedKey,
  LibraryMe,
  LibraryPlan,
  LibraryUsage,
  toLibraryIssuedKey,
  toLibraryMe,
  toLibraryPlan,
  toLibraryUsage,
} from './accounts.types.js';
import { PLAN_NAMES, PLANS } from './plans.js';
import { RegistrationService } from './registration.service.js';

/** Plans, registration and what a key learns about itself. */
@Resolver()
export class AccountsResolver {
  static readonly inject = [LibraryAccess, RegistrationService, AccountService];

  constructor(
    private readonly access: LibraryAccess,
    private readonly registration: RegistrationService,
    private readonly account: AccountService,
  ) {}

  @Query(() => [LibraryPlan], { description: 'Plans and their limits. Open: no key needed.' })
  libraryPlans(): LibraryPlan[] {
    return PLAN_NAMES.map((name) => toLibraryPlan(PLANS[name]));
  }

  @Mutation(() => LibraryIssuedKey, {
    description: 'Registers a free key. Open: no key needed; 3 keys per e-mail address and 5 per client address per UTC day.',
  })
  async libraryRegister(
    @Ctx() ctx: SubgraphContext,
    @Arg('email', () => String) email: string,
    @Arg('org', () => String, { nullable: true }) org?: string | null,
  ): Promise<LibraryIssuedKey> {
    return toLibraryIssuedKey(await this.registration.register(ctx, { email, org }));
  }

  @Query(() => LibraryMe, { description: 'The calling key and its consumption. Counts as a call.' })
  async libraryMe(@Ctx() ctx: SubgraphContext): Promise<LibraryMe> {
    const caller = await this.access.admit(ctx, 'me');
    return toLibraryMe(await this.account.overview(ctx, caller));
  }

  @Query(() => LibraryUsage, {
    description: 'Calls per UTC day and operation; `days` defaults to 30 and is capped at 90. Counts as a call.',
  })
  async libraryUsage(@Ctx() ctx: SubgraphContext, @Arg('days', () => Int, { nullable: true }) days?: number | null): Promise<LibraryUsage> {
    const caller = await this.access.admit(ctx, 'usage');
    return toLibraryUsage(await this.account.report(ctx, caller, days));
  }
}
