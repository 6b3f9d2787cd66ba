import * as client from 'openid-client';
import { CONSOLE_CLIENT } from '../../contracts/identity.js';
import { Browser } from './oidc-browser.js';
import { DEMO_PASSWORD } from './operations.js';
import type { TestStack } from './stack.js';

/** Tokens of a person signed in at our provider with the console's client. */
export interface SignedIn {
  readonly accessToken: string;
  readonly refreshToken: string | undefined;
  readonly idToken: string;
  readonly subject: string;
  readonly configuration: client.Configuration;
}

/**
 * Signs a person in as the console does, over real HTTP: `openid-client` discovers our
 * issuer, the console's public client (registered by the deployment itself) asks for a code
 * with PKCE S256, the person signs in on the provider's page, the code is exchanged.
 */
export async function signInWithConsoleClient(stack: TestStack, email: string, password = DEMO_PASSWORD): Promise<SignedIn> {
  const redirectUri = `${stack.url}${CONSOLE_CLIENT.redirectPath}`;
  const configuration = await client.discovery(new URL(`${stack.url}/oidc`), CONSOLE_CLIENT.clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: CONSOLE_CLIENT.scopes.join(' '),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const browser = new Browser(stack.url, redirectUri);
  const signedIn = await browser.submit(await browser.visit(url), 'login', { email, password });
  if (!signedIn.callback) throw new Error(`sign-in of ${email} did not come back: ${signedIn.status} ${signedIn.html.slice(0, 300)}`);
  const tokens = await client.authorizationCodeGrant(configuration, signedIn.callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    idToken: tokens.id_token!,
    subject: tokens.claims()!.sub,
    configuration,
  };
}
