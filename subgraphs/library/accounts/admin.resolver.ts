import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../shared/context.js';
import { AdminService } from './admin.service.js';
import {
  LibraryAdminStats,
  LibraryIssuedKey,
  LibraryKey,
  toLibraryAdminStats,
  toLibraryIssuedKey,
  toLibraryKey,
} from './accounts.types.js';

const GUARD = 'Admin only: header `x-admin-token`.';

/** Admin fields; each needs `x-admin-token` and answers 401 without a hint otherwise. */
@Resolver()
export class AdminResolver {
  static readonly inject = [AdminService];

  constructor(private readonly admin: AdminService) {}

  @Mutation(() => LibraryIssuedKey, { description: `Creates a key on any plan; the key is shown once. ${GUARD}` })
  async libraryAdminCreateKey(
    @Ctx() ctx: SubgraphContext,
    @Arg('email', () => String) email: string,
    @Arg('plan', () => String) plan: string,
    @Arg('org', () => String, { nullable: true }) org?: string | null,
  ): Promise<LibraryIssuedKey> {
    return toLibraryIssuedKey(await this.admin.createKey(ctx, { email, plan, org }));
  }

  @Mutation(() => LibraryKey, { description: `Moves a key to another plan. ${GUARD}` })
  async libraryAdminSetKeyPlan(
    @Ctx() ctx: SubgraphContext,
    @Arg('keyId', () => Int) keyId: number,
    @Arg('plan', () => String) plan: string,
  ): Promise<LibraryKey> {
    return toLibraryKey(await this.admin.setPlan(ctx, keyId, plan));
  }

  @Mutation(() => LibraryKey, { description: `Sets the key’s own daily quota; null (or omitted) returns it to its plan’s. ${GUARD}` })
  async libraryAdminSetKeyRpd(
    @Ctx() ctx: SubgraphContext,
    @Arg('keyId', () => Int) keyId: number,
    @Arg('rpd', () => Int, { nullable: true }) rpd?: number | null,
  ): Promise<LibraryKey> {
    return toLibraryKey(await this.admin.setRpd(ctx, keyId, rpd ?? null));
  }

  @Mutation(() => LibraryKey, { description: `Sets a key’s status: active, suspended or revoked; applies to its next call. ${GUARD}` })
  async libraryAdminSetKeyStatus(
    @Ctx() ctx: SubgraphContext,
    @Arg('keyId', () => Int) keyId: number,
    @Arg('status', () => String) status: string,
  ): Promise<LibraryKey> {
    return toLibraryKey(await this.admin.setStatus(ctx, keyId, status));
  }

  @Query(() => LibraryAdminStats, { description: `Keys by plan and status, calls today, the busiest keys. ${GUARD}` })
  async libraryAdminStats(@Ctx() ctx: SubgraphContext): Promise<LibraryAdminStats> {
    return toLibraryAdminStats(await this.admin.stats(ctx));
  }
}
