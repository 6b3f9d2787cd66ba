import type { PublicAccess } from '../../../contracts/access.js';
import type { Guard } from './implementation.js';

/** Open operations: nothing to check, no caller. */
export const publicGuard: Guard<PublicAccess> = {
  admit: async () => undefined,
};
