import DataLoader from 'dataloader';
import { iamListUsers, iamMe } from '../../../contracts/operations/iam.contract.js';
import type { SubgraphContext } from '../../shared/context.js';
import type { OperationsGuard } from './operations-guard.js';
import type { Principal } from '../core/principal.js';
import { OperationsError } from '../operations.errors.js';
import { USER_COLUMNS, userData, type UserRow } from './users.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface PerRequest {
  readonly users: DataLoader<string, UserRow | undefined>;
  /** The caller as `iamMe` admits them: any signed-in user. */
  readonly signedIn: Promise<Principal>;
  /** The caller as `iamListUsers` admits them (an Admin of their organization), or undefined when it would not. */
  readonly lister: () => Promise<Principal | undefined>;
}

/**
 * Finds `User` entities for the gateway (`_entities`): every representation of one request
 * in one query (a DataLoader per request), each shown to whom `iamMe` or `iamListUsers`
 * would show it — the user themself, an Admin of their organization, the super-admin.
 * Anyone else gets the error at the entity's path; an id no account has is null.
 */
export class UserReferences {
  private readonly requests = new WeakMap<SubgraphContext, PerRequest>();

  constructor(private readonly guard: OperationsGuard) {}

  async resolve(reference: Readonly<Record<string, unknown>>, ctx: SubgraphContext) {
    const id = typeof reference.id === 'string' ? reference.id : '';
    const request = this.request(ctx);
    const caller = await request.signedIn;
    const row = await request.users.load(id);
    if (!row) return null;
    if (row.id === caller.userId || caller.superAdmin) return userData(row);
    const lister = await request.lister();
    if (lister && lister.organizationId !== null && lister.organizationId === row.organization_id) return userData(row);
    throw OperationsError.forbidden('Only the user, an Admin of their organization or the super-admin sees this account.');
  }

  private request(ctx: SubgraphContext): PerRequest {
    let request = this.requests.get(ctx);
    if (request) return request;
    let lister: Promise<Principal | undefined> | undefined;
    request = {
      users: new DataLoader((ids: readonly string[]) => this.load(ctx, ids)),
      signedIn: this.guard.admit(ctx, iamMe.access[0]!, iamMe),
      lister: () => (lister ??= this.guard.admit(ctx, iamListUsers.access[0]!, iamListUsers).catch(() => undefined)),
    };
    // Admission may fail; each reference reports it, none leaves an unhandled rejection.
    request.signedIn.catch(() => undefined);
    this.requests.set(ctx, request);
    return request;
  }

  private async load(ctx: SubgraphContext, ids: readonly string[]): Promise<Array<UserRow | undefined>> {
    const wanted = ids.filter((id) => UUID.test(id));
    const rows =
      wanted.length === 0
        ? []
        : // raw SQL: a batch of users read in the row form (USER_COLUMNS) that the users list also maps with userData.
          await ctx.em.execute<UserRow[]>(`select ${USER_COLUMNS} from "operations"."app_user" u where u."id" = any(?::uuid[])`, [
            `{${wanted.join(',')}}`,
          ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  }
}
