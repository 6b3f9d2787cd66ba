import { validateAdminCommand, type AdminCommand } from '../../subgraphs/library/accounts/admin-input.js';
import { FacadeError } from '../facade-error.js';
import type { RouteDefinition, RouteInput } from '../route.js';
import { adminStatsBody, issuedKeyBody, keyBody, type AdminStatsData, type IssuedKeyData, type KeyData } from './library-account-shapes.js';
import { NO_STORE } from './library-accounts.js';

/**
 * Checks an admin request before its operation runs, as FastAPI does before a
 * handler: a bad path parameter or body is a 422 `detail` list whatever the token.
 * The same check runs again in the admin service for GraphQL callers.
 */
function adminVariables(command: AdminCommand) {
  return (input: RouteInput): Record<string, unknown> => {
    const result = validateAdminCommand(command, { path: input.params, body: input.body });
    if (!result.ok) {
      const first = result.issues[0]!;
      throw new FacadeError(
        422,
        'invalid_admin_input',
        first.msg,
        String(first.loc.at(-1)),
        result.issues.map((issue) => ({ field: issue.loc.join('.'), message: issue.msg })),
        { validation: result.issues },
      );
    }
    return result.value as Record<string, unknown>;
  };
}

/** `/admin/…`: keys and stats, behind `x-admin-token`. */
export const libraryAdminRoutes: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/admin/keys',
    family: 'library-admin',
    operation: 'LibraryAdminCreateKey',
    variables: adminVariables('createKey'),
    respond: (data) => ({ body: issuedKeyBody(data.libraryAdminCreateKey as IssuedKeyData), headers: NO_STORE }),
  },
  {
    method: 'POST',
    path: '/admin/keys/:key_id/plan',
    family: 'library-admin',
    operation: 'LibraryAdminSetKeyPlan',
    variables: adminVariables('setPlan'),
    respond: (data) => ({ body: keyBody(data.libraryAdminSetKeyPlan as KeyData) }),
  },
  {
    method: 'POST',
    path: '/admin/keys/:key_id/rpd',
    family: 'library-admin',
    operation: 'LibraryAdminSetKeyRpd',
    variables: adminVariables('setRpd'),
    respond: (data) => ({ body: keyBody(data.libraryAdminSetKeyRpd as KeyData) }),
  },
  {
    method: 'POST',
    path: '/admin/keys/:key_id/status',
    family: 'library-admin',
    operation: 'LibraryAdminSetKeyStatus',
    variables: adminVariables('setStatus'),
    respond: (data) => ({ body: keyBody(data.libraryAdminSetKeyStatus as KeyData) }),
  },
  {
    method: 'GET',
    path: '/admin/stats',
    family: 'library-admin',
    operation: 'LibraryAdminStats',
    respond: (data) => ({ body: adminStatsBody(data.libraryAdminStats as AdminStatsData) }),
  },
];
