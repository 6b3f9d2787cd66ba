import { withAfterCommit } from '../../shared/after-commit.js';
import type { SubgraphContext } from '../../shared/context.js';
import { AccountsError } from './accounts.errors.js';
import { emailProblem, normalizeEmail } from '../../../contracts/library/email.js';
import { issueKey } from './key-issuer.js';
import type { IssuedKey } from './key-views.js';
import type { UsageRepository } from './usage.repository.js';
import { secondsUntil, systemClock, windowsAt, type Clock } from './windows.js';

/** Keys `POST /v1/register` issues per UTC day, per e-mail address and per client address. */
export const REGISTRATION_LIMITS = { perEmail: 3, perIp: 5 } as const;

const ORG_MAX = 200;

export interface RegistrationRequest {
  readonly email: string;
  readonly org?: string | null;
  /** The signed-in Qantara account the key is for (`POST /v1/me/keys`); absent for `POST /v1/register`. */
  readonly ownerUserId?: string;
}

/** Self-service registration of free keys. */
export class RegistrationService {
  private readonly clock: Clock;

  constructor(
    private readonly usage: UsageRepository,
    options: { readonly clock?: Clock } = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Issues a free key when neither the e-mail address nor the client address has
   * used up today's registrations. Both counters and the key are written in one
   * transaction, so a refused registration counts against neither.
   */
  async register(ctx: SubgraphContext, request: RegistrationRequest): Promise<IssuedKey> {
    const email = request.email.trim();
    const reason = email === '' ? 'An email address is required.' : emailProblem(email);
    if (reason) throw AccountsError.invalidEmail(reason);
    const org = request.org?.trim() || null;
    if (org !== null && org.length > ORG_MAX) throw AccountsError.invalidOrg(`at most ${ORG_MAX} characters`);
    const now = this.clock();
    const windows = windowsAt(now);
    const retryAfter = secondsUntil(windows.dayReset, now);
    // Its own transaction (joined when a call's encloses it): the address was counted before it.
    return withAfterCommit(ctx.em, ctx.logger, async (em) => {
      const claimed = await this.usage.claimRegistration(
        em,
        normalizeEmail(email),
        ctx.clientIp ?? 'unknown',
        windows.day,
        REGISTRATION_LIMITS,
      );
      if (!claimed.email) throw AccountsError.registrationLimited('email', REGISTRATION_LIMITS.perEmail, retryAfter);
      if (!claimed.ip) throw AccountsError.registrationLimited('ip', REGISTRATION_LIMITS.perIp, retryAfter);
      const owner = request.ownerUserId
        ? { source: 'account' as const, ownerUserId: request.ownerUserId }
        : { source: 'register' as const };
      return issueKey(em, { email, org, plan: 'free', ...owner }, now);
    });
  }
}
