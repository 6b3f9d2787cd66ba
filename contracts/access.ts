/**
 * Who may call an operation, declared in its contract and enforced by one pipeline
 * before the service runs (subgraphs/shared/contracts/pipeline.ts). Each kind has
 * exactly one guard, provided by the service that owns it; an operation without an
 * access, or whose kind no guard serves, stops the process at start-up.
 */

/** Open to anyone: no credentials read. */
export interface PublicAccess {
  readonly kind: 'public';
  /**
   * A route the edge answers alone (a documentation page) that is still counted per client
   * address by its service, which reports the windows as headers (docs/adr/0038).
   */
  readonly perAddress?: boolean;
}

/** A library key (`Authorization: Bearer qk_live_…`), metered against its plan; `usage` names the call in `/v1/usage`. */
export interface LibraryKeyAccess {
  readonly kind: 'libraryKey';
  readonly usage: string;
}

/**
 * A signed-in Qantara account (`Authorization: Bearer` with the access token of operations'
 * sign-in, `POST /api/v1/iam/login`), acting on its own library keys (docs/adr/0039).
 */
export interface LibraryAccountAccess {
  readonly kind: 'libraryAccount';
}

/** The operator's `x-admin-token` (`ADMIN_TOKEN`). */
export interface AdminTokenAccess {
  readonly kind: 'adminToken';
}

export const RESEARCH_SCOPES = [
  'api_keys_admin',
  'billing_read',
  'billing_write',
  'threads_read',
  'threads_write',
  'research_write',
] as const;
export type ResearchScope = (typeof RESEARCH_SCOPES)[number];

/** A research workspace key (`Authorization: Bearer rk_…`) holding every listed scope. */
export interface ResearchKeyAccess {
  readonly kind: 'researchKey';
  readonly scopes: readonly ResearchScope[];
}

/** A signed-in user of the identity provider (OAuth 2.0 bearer access token), acting in their workspace. */
export interface ResearchUserAccess {
  readonly kind: 'researchUser';
}

export const OPERATIONS_ROLES = ['Admin', 'CEO', 'Engineer', 'Mechanic', 'Foreman', 'OtibSpecialist', 'Supply'] as const;
export type OperationsRole = (typeof OPERATIONS_ROLES)[number];

/**
 * A member of an organization (bearer access token or `X-API-Key`): `roles` whose system
 * role is seeded with this operation among its permissions (`any`: every member, no
 * permission needed), whether the platform super-admin may (`also`, `only`, `never`),
 * and whether the call is limited to the caller's production objects when every role
 * they hold is object-scoped (`objectScope`, default on). Which roles are object-scoped
 * is the system-role book's `scopeByObject`; `exempt` roles see all objects for this
 * operation even when scoped elsewhere, and `allObjects`, when given, names the only
 * roles that see all objects here (every other role is limited to its objects).
 * Access is data (docs/adr): the guard reads each role's permissions from the book.
 */
export interface OperationsAccess {
  readonly kind: 'operations';
  readonly roles: readonly OperationsRole[] | 'any';
  readonly superAdmin: 'also' | 'only' | 'never';
  readonly objectScope: boolean;
  readonly exempt: readonly OperationsRole[];
  readonly allObjects?: readonly OperationsRole[];
  /** Signed-in callers only: no `X-API-Key` (e.g. managing the keys themselves). */
  readonly userOnly: boolean;
  /**
   * The call acts inside one organization (the caller's; a super-admin names it in
   * `X-Organization-Id`). Off for platform operations (organizations, sign-in).
   */
  readonly tenant: boolean;
  /**
   * The scope an `X-API-Key` needs (seed part B) when not the one its kind implies:
   * `read` for a query, `delete` for a REST `DELETE`, `write` for another mutation,
   * `admin` for a super-admin-only operation.
   */
  readonly keyScope?: ApiKeyScope;
}

/** Scopes of the operations service's business API keys (`X-API-Key`, seed part B); `*` is every one. */
export const API_KEY_SCOPES = ['read', 'write', 'delete', 'admin', 'webhooks', '*'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export type Access =
  PublicAccess | LibraryKeyAccess | LibraryAccountAccess | AdminTokenAccess | ResearchKeyAccess | ResearchUserAccess | OperationsAccess;
export type AccessKind = Access['kind'];

/**
 * An operation's access as declared: one kind, or a list of kinds for an operation several
 * kinds of caller may call (a key or a signed-in user). Contracts hold it as a list.
 */
export type AccessDeclaration<A extends Access = Access> = A | readonly A[];

/** The declared access as the list a contract holds: one kind is a list of one. */
export function accessList<A extends Access>(declared: AccessDeclaration<A>): readonly A[] {
  const list = (Array.isArray(declared) ? declared : [declared]) as readonly A[];
  const kinds = list.map((access) => access.kind);
  if (new Set(kinds).size !== kinds.length) throw new Error(`access lists a kind twice: ${kinds.join(', ')}`);
  return list;
}

/** The access of one kind in a list, if the list has it. */
export function accessOfKind<K extends AccessKind>(list: readonly Access[], kind: K): Extract<Access, { kind: K }> | undefined {
  return list.find((access): access is Extract<Access, { kind: K }> => access.kind === kind);
}

/**
 * The request header through which the edge tells a service which of an operation's access
 * kinds a REST route takes (a route bound with `accepts`), comma-separated; the edge sets it
 * and never forwards a client's own (docs/adr/0046).
 */
export const ACCESS_KINDS_HEADER = 'x-access-kinds';

export const publicAccess = (options: { perAddress?: boolean } = {}): PublicAccess =>
  options.perAddress ? { kind: 'public', perAddress: true } : { kind: 'public' };
export const libraryKey = (usage: string): LibraryKeyAccess => ({ kind: 'libraryKey', usage });
export const libraryAccount = (): LibraryAccountAccess => ({ kind: 'libraryAccount' });
export const adminToken = (): AdminTokenAccess => ({ kind: 'adminToken' });
export const researchKey = (...scopes: ResearchScope[]): ResearchKeyAccess => ({ kind: 'researchKey', scopes });
export const researchUser = (): ResearchUserAccess => ({ kind: 'researchUser' });

export interface OperationsAccessOptions {
  readonly superAdmin?: OperationsAccess['superAdmin'];
  readonly objectScope?: boolean;
  readonly exempt?: readonly OperationsRole[];
  readonly allObjects?: readonly OperationsRole[];
  readonly userOnly?: boolean;
  readonly tenant?: boolean;
  readonly keyScope?: ApiKeyScope;
}

/** Members holding one of `roles` (or `any` member); the super-admin too unless told otherwise. */
export const members = (roles: readonly OperationsRole[] | 'any', options: OperationsAccessOptions = {}): OperationsAccess => ({
  kind: 'operations',
  roles,
  superAdmin: options.superAdmin ?? 'also',
  objectScope: options.objectScope ?? true,
  exempt: options.exempt ?? [],
  ...(options.allObjects ? { allObjects: options.allObjects } : {}),
  userOnly: options.userOnly ?? false,
  tenant: options.tenant ?? true,
  ...(options.keyScope ? { keyScope: options.keyScope } : {}),
});

/** The platform super-admin alone (organizations). */
export const superAdminOnly = (): OperationsAccess => members([], { superAdmin: 'only', objectScope: false, tenant: false });

/**
 * The scope an `X-API-Key` needs for an operation: declared (`keyScope`), else `admin` for a
 * super-admin-only operation, `read` for a query, `delete` for a REST `DELETE`, `write` otherwise.
 */
export function requiredKeyScope(
  access: OperationsAccess,
  operation: { readonly kind: string; readonly rest: readonly { readonly method: string }[] },
): ApiKeyScope {
  if (access.keyScope) return access.keyScope;
  if (access.superAdmin === 'only') return 'admin';
  if (operation.kind === 'query') return 'read';
  return operation.rest.some((binding) => binding.method === 'DELETE') ? 'delete' : 'write';
}

/** One line for catalogues and tests: who may call (several kinds are alternatives, in their order). */
export function describeAccess(access: Access | readonly Access[]): string {
  if (Array.isArray(access)) return access.map((one: Access) => describeAccess(one)).join(' or ');
  const single = access as Access;
  switch (single.kind) {
    case 'public':
      return 'public';
    case 'libraryKey':
      return `library key (metered as ${single.usage})`;
    case 'libraryAccount':
      return 'signed-in Qantara account (sign-in access token)';
    case 'adminToken':
      return 'admin token';
    case 'researchKey':
      return `research key with ${single.scopes.join(' + ') || 'any scope'}`;
    case 'researchUser':
      return 'signed-in user (OAuth bearer)';
    case 'operations': {
      const who = single.roles === 'any' ? 'any member' : single.roles.join(', ');
      if (single.superAdmin === 'only') return 'super-admin';
      // The roles that see every object here: all but `allObjects` are limited; `exempt` roles are not.
      const unscoped = single.allObjects ?? single.exempt;
      const scope = !single.objectScope ? '' : unscoped.length > 0 ? `, object scope except ${unscoped.join(', ')}` : ', object scope';
      return `${who}${single.superAdmin === 'also' ? ' or super-admin' : ''}${scope}`;
    }
  }
}
