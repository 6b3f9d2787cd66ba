import type { KeyMode } from '../../../contracts/research/account-types.js';

/**
 * Whom a research service method acts for: a workspace and the mode whose balance, cases and
 * providers it uses. A key admits one (`ResearchCaller`), and so does a signed-in user
 * (`WorkspaceUser`); services know nothing else of the caller.
 */
export interface WorkspaceActor {
  readonly workspaceId: string;
  /** Test mode sees the test balance and cases, and runs offline providers only. */
  readonly mode: KeyMode;
}
