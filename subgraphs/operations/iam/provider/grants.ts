import type { Grant, Interaction, KoaContextWithOIDC, Provider } from 'oidc-provider';

/**
 * Consent. Every client is registered by the platform super-admin, so every client is first
 * party: the user is never asked, and what the client asks for (within the scopes it is
 * allowed, which the engine checks first) is granted — still recorded as a grant, which the
 * codes and refresh tokens refer to and which a revocation or the client's removal ends.
 */

/** The engine's `loadExistingGrant`: the session's grant for the client, extended to what is asked now. */
export async function firstPartyGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { oidc } = ctx;
  const accountId = oidc.session?.accountId;
  const client = oidc.client;
  if (!accountId || !client) return undefined;
  const existingId = (oidc.result?.consent?.grantId as string | undefined) ?? oidc.session.grantIdFor(client.clientId);
  let grant = existingId ? await oidc.provider.Grant.find(existingId) : undefined;
  if (!grant || grant.accountId !== accountId || grant.clientId !== client.clientId) {
    grant = new oidc.provider.Grant({ accountId, clientId: client.clientId });
  }
  const scopes = [...oidc.requestParamOIDCScopes];
  if (scopes.length > 0) grant.addOIDCScope(scopes.join(' '));
  const claims = [...oidc.requestParamClaims];
  if (claims.length > 0) grant.addOIDCClaims(claims);
  for (const [indicator, server] of Object.entries(oidc.resourceServers ?? {})) {
    const granted = [...oidc.requestParamScopes].filter((scope) => server.scopes.has(scope));
    if (granted.length > 0) grant.addResourceScope(indicator, granted.join(' '));
  }
  await grant.save();
  return grant;
}

/** An explicit consent prompt (`prompt=consent`): granted at once, like everything else here. */
export async function grantConsentPrompt(provider: Provider, interaction: Interaction): Promise<string> {
  const accountId = interaction.session?.accountId;
  const clientId = String(interaction.params.client_id);
  if (!accountId) throw new Error('a consent prompt without a signed-in account');
  let grant = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  grant ??= new provider.Grant({ accountId, clientId });
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (details.missingOIDCScope?.length) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  return grant.save();
}
