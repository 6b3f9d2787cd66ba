import { OperationsError } from '../operations.errors.js';

/**
 * The bot challenge of registration: a Turnstile-compatible `siteverify` endpoint checks
 * the widget's token with our secret (`CHALLENGE_SECRET`, `CHALLENGE_VERIFY_URL`). With no
 * secret configured the challenge is off (local and demo runs).
 */
export class BotChallenge {
  constructor(private readonly config: { readonly challengeSecret: string | undefined; readonly challengeVerifyUrl: string }) {}

  async pass(token: string | undefined, ip: string | null): Promise<void> {
    if (!this.config.challengeSecret) return;
    if (!token) throw OperationsError.botChallengeFailed();
    const form = new URLSearchParams({ secret: this.config.challengeSecret, response: token });
    if (ip) form.set('remoteip', ip);
    const outcome = await fetch(this.config.challengeVerifyUrl, { method: 'POST', body: form, signal: AbortSignal.timeout(10_000) })
      .then((response) => (response.ok ? (response.json() as Promise<{ success?: unknown }>) : undefined))
      .catch(() => undefined);
    if (outcome?.success !== true) throw OperationsError.botChallengeFailed();
  }
}
