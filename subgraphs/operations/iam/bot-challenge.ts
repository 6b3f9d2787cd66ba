import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Config } from '../../../runtime/config.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { OperationsError } from '../operations.errors.js';

/**
 * The proof of work an ALTCHA challenge asks for: the client tries counters until a
 * SHA-256 chain of `cost` rounds over salt and counter starts with the challenge's key
 * prefix. A counter between the bounds takes a browser well under a second; a script
 * registering in bulk pays it for every account.
 */
export const ALTCHA_WORK = { algorithm: 'SHA-256', cost: 10, counterMin: 5_000, counterMax: 20_000, validSeconds: 600 } as const;

type ChallengeConfig = Pick<Config, 'challenge' | 'challengeSecret' | 'challengeVerifyUrl'>;

/**
 * The bot challenge of registration (`CHALLENGE`, docs/adr):
 * - `altcha` (default): a self-hosted proof of work; `GET /api/v1/iam/challenge` issues a
 *   signed challenge and `challenge_token` carries the solved payload (base64 JSON of
 *   `{challenge, solution}`, as the ALTCHA widget submits it). Signed with a key derived
 *   from the secrets key (`SECRETS_KEY`, or the one generated into `DATA_DIR`), so every HTTP
 *   worker and instance sharing it verifies what another issued. A solved challenge is taken
 *   once per process (ADR 0043: at most once per worker).
 * - `turnstile`: a Turnstile-compatible `siteverify` endpoint checks the widget's token with
 *   `CHALLENGE_SECRET` (`CHALLENGE_VERIFY_URL`).
 * - `off`: no challenge.
 */
export class BotChallenge {
  private readonly signatureSecret: string;
  private readonly keySignatureSecret: string;
  /** Signatures of solved challenges already taken, with when they expire (ms). */
  private readonly spent = new Map<string, number>();

  constructor(
    private readonly config: ChallengeConfig,
    box: Pick<SecretBox, 'derive'>,
  ) {
    const base = box.derive('altcha-challenge').toString('base64');
    const derive = (label: string) => createHmac('sha256', base).update(label).digest('base64url');
    this.signatureSecret = derive('altcha-challenge-signature');
    this.keySignatureSecret = derive('altcha-key-signature');
  }

  /** A new signed ALTCHA challenge, valid 10 minutes. */
  async issue(): Promise<{ parameters: Challenge['parameters'] & { keySignature: string; expiresAt: number }; signature: string }> {
    const challenge = await createChallenge({
      algorithm: ALTCHA_WORK.algorithm,
      cost: ALTCHA_WORK.cost,
      counter: randomInt(ALTCHA_WORK.counterMin, ALTCHA_WORK.counterMax),
      deriveKey,
      expiresAt: Math.floor(Date.now() / 1000) + ALTCHA_WORK.validSeconds,
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
    const { keySignature, expiresAt } = challenge.parameters;
    return { parameters: { ...challenge.parameters, keySignature: keySignature!, expiresAt: expiresAt! }, signature: challenge.signature! };
  }

  async pass(token: string | undefined, ip: string | null): Promise<void> {
    if (this.config.challenge === 'off') return;
    if (!token) throw OperationsError.botChallengeFailed();
    if (this.config.challenge === 'altcha') return this.altcha(token);
    const form = new URLSearchParams({ secret: this.config.challengeSecret ?? '', response: token });
    if (ip) form.set('remoteip', ip);
    const outcome = await fetch(this.config.challengeVerifyUrl, { method: 'POST', body: form, signal: AbortSignal.timeout(10_000) })
      .then((response) => (response.ok ? (response.json() as Promise<{ success?: unknown }>) : undefined))
      .catch(() => undefined);
    if (outcome?.success !== true) throw OperationsError.botChallengeFailed();
  }

  private async altcha(token: string): Promise<void> {
    let payload: { challenge?: Challenge; solution?: Solution } | undefined;
    try {
      payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as typeof payload;
    } catch {
      throw OperationsError.botChallengeFailed();
    }
    const { challenge, solution } = payload ?? {};
    if (!challenge?.parameters || typeof challenge.signature !== 'string' || typeof solution?.counter !== 'number') {
      throw OperationsError.botChallengeFailed();
    }
    const result = await verifySolution({
      challenge,
      solution,
      deriveKey,
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    }).catch(() => undefined);
    if (!result?.verified) throw OperationsError.botChallengeFailed();
    const now = Date.now();
    for (const [signature, expires] of this.spent) if (expires <= now) this.spent.delete(signature);
    if (this.spent.has(challenge.signature)) throw OperationsError.botChallengeFailed();
    this.spent.set(challenge.signature, (challenge.parameters.expiresAt ?? now / 1000 + ALTCHA_WORK.validSeconds) * 1000);
  }
}
