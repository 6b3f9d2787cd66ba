import { CommonErrorCode } from '../contracts/errors.js';
import type { IdentityProviderFacts } from '../contracts/operation.js';
import { FacadeError } from '../edge/facade-error.js';

/**
 * The identity provider's discovery document as the site mirrors it: fetched from the
 * issuer (`<issuer>/.well-known/openid-configuration`, over HTTP even when the provider
 * runs in this process, so a provider served elsewhere is mirrored the same way), kept
 * for `ttlMs`, and checked to name the issuer it was fetched from. A provider that does
 * not answer is a 502 `UPSTREAM_FAILED`; the next request tries again.
 */
export function identityProviderMirror(
  issuer: () => string,
  options: { readonly fetch?: typeof fetch; readonly ttlMs?: number } = {},
): IdentityProviderFacts {
  const fetchImpl = options.fetch ?? fetch;
  const ttlMs = options.ttlMs ?? 300_000;
  let cached: { at: number; issuer: string; document: Promise<Readonly<Record<string, unknown>>> } | undefined;
  const load = async (from: string): Promise<Readonly<Record<string, unknown>>> => {
    const unavailable = (why: string) =>
      FacadeError.of(CommonErrorCode.UPSTREAM_FAILED, `The identity provider ${from} did not serve its discovery document (${why}).`);
    let response: Response;
    try {
      // OpenID Connect Discovery §4: the issuer with any terminating `/` removed, then the well-known path.
      response = await fetchImpl(`${from.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw unavailable((error as Error).message);
    }
    if (!response.ok) throw unavailable(`status ${response.status}`);
    const document = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (typeof document !== 'object' || document === null || document.issuer !== from) throw unavailable('it names another issuer');
    return document;
  };
  return {
    get issuer() {
      return issuer();
    },
    metadata() {
      const from = issuer();
      if (!cached || cached.issuer !== from || Date.now() - cached.at > ttlMs) {
        const document = load(from);
        cached = { at: Date.now(), issuer: from, document };
        // A failure is not kept: the next request asks again.
        document.catch(() => {
          if (cached?.document === document) cached = undefined;
        });
      }
      return cached.document;
    },
  };
}
