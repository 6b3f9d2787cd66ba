import { describe, expect, it } from 'vitest';
import { FacadeError } from '../../edge/facade-error.js';
import { identityProviderMirror } from '../../rest-facade/identity-mirror.js';

const ISSUER = 'https://id.example.org/oidc';

function fakeFetch(answers: Array<() => Response>) {
  const calls: string[] = [];
  const impl = (async (url: string | URL | Request) => {
    calls.push(String(url));
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  }) as typeof fetch;
  return { calls, impl };
}

const document =
  (issuer = ISSUER) =>
  () =>
    Response.json({ issuer, authorization_endpoint: `${issuer}/auth` });

describe('identity provider mirror', () => {
  it('fetches the issuer’s discovery document once and keeps it', async () => {
    const fake = fakeFetch([document()]);
    const mirror = identityProviderMirror(() => ISSUER, { fetch: fake.impl });
    expect(await mirror.metadata()).toMatchObject({ issuer: ISSUER });
    expect(await mirror.metadata()).toMatchObject({ issuer: ISSUER });
    expect(fake.calls).toEqual([`${ISSUER}/.well-known/openid-configuration`]);
    expect(mirror.issuer).toBe(ISSUER);
  });

  it('answers 502 when the provider fails or names another issuer, and asks again next time', async () => {
    const fake = fakeFetch([() => new Response('down', { status: 503 }), document('https://other.example.org'), document()]);
    const mirror = identityProviderMirror(() => ISSUER, { fetch: fake.impl });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await mirror.metadata().catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(FacadeError);
      expect((error as FacadeError).status).toBe(502);
    }
    expect(await mirror.metadata()).toMatchObject({ issuer: ISSUER });
    expect(fake.calls).toHaveLength(3);
  });

  it('mirrors an issuer spelled with a terminating slash from its discovery address, checked against the issuer as spelled', async () => {
    const fake = fakeFetch([document('https://tenant.example.org/')]);
    const mirror = identityProviderMirror(() => 'https://tenant.example.org/', { fetch: fake.impl });
    expect(await mirror.metadata()).toMatchObject({ issuer: 'https://tenant.example.org/' });
    expect(fake.calls).toEqual(['https://tenant.example.org/.well-known/openid-configuration']);
  });
});
