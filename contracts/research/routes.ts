import { researchKey, researchUser, type AccessKind, type ResearchScope } from '../access.js';
import { WORKSPACE_RESOURCE_PATH } from '../identity.js';

/**
 * The two APIs of the research service's operations (docs/adr/0046): the key API (`/v1/…`,
 * `Authorization: Bearer rk_…`) and the workspace API (`/api/chat/…`, a signed-in user's
 * access token, docs/adr/0020). An operation both serve is one contract taking either
 * credential, with one REST route in each API; each route takes its own API's credential
 * only, so each answers exactly as it did when the workspace API had operations of its own.
 */

/** A key holding every listed scope, or a signed-in user acting in their own workspace (live mode). */
export const keyOrSignedIn = (...scopes: ResearchScope[]) => [researchKey(...scopes), researchUser()];

/** A route of the key API: a research key only. */
export const KEY_API = { accepts: ['researchKey'] } as const satisfies { readonly accepts: readonly AccessKind[] };

/** Where the workspace API's routes are. */
export const WORKSPACE_API_PATH = WORKSPACE_RESOURCE_PATH;

/**
 * A route of the workspace API: a signed-in user's access token only (a key there is an
 * invalid access token), listed under `workspace` in the OpenAPI description with the
 * operationId it was released with.
 */
export const workspaceApi = (operationId: string, tag: string) =>
  ({ accepts: ['researchUser'], tags: [tag, 'workspace'], operationId }) as const satisfies {
    readonly accepts: readonly AccessKind[];
    readonly tags: readonly string[];
    readonly operationId: string;
  };
