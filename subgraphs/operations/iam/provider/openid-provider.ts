import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context, Middleware } from 'koa';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { CONSOLE_CLIENT, OIDC_ISSUER_PATH, WORKSPACE_SCOPE } from '../../../../contracts/identity.js';
import { OIDC_SCOPES } from '../../../../contracts/operations/oidc-clients.contract.js';
import type { Logger } from '../../../../runtime/logger.js';
import { workspaceResource, type WorkspaceSettings } from '../../../../runtime/workspace-resource.js';
import type { SecretBox } from '../../../shared/secret-box.js';
import type { HttpMount, PublicOrigin } from '../../../shared/subgraph.js';
import type { AttemptCounter } from '../attempts.js';
import type { SignInFlow } from '../sign-in.js';
import { ProviderAccounts, SCOPE_CLAIMS } from './accounts.js';
import { OidcStore } from './adapter.js';
import type { FirstPartyClient, OidcClientsService } from './clients.service.js';
import { firstPartyGrant } from './grants.js';
import { INTERACTION_ROUTE, InteractionPages, type InteractionAction } from './interactions.js';
import { loadProviderKeys, SIGNING_ALG } from './keys.js';
import { errorPage, loggedOutPage, logoutPage, PAGE_HEADERS } from './pages.js';

/**
 * The console's client (`/app`) at this origin: its redirect is `<origin>/app/`, and on a
 * loopback origin also the other spellings of loopback, so the console signs in whichever
 * one the browser used (`localhost` or `127.0.0.1`).
 */
export function consoleClient(origin: string): FirstPartyClient {
  const url = new URL(`${origin}${CONSOLE_CLIENT.redirectPath}`);
  const loopback = ['localhost', '127.0.0.1', '[::1]'];
  const hosts = loopback.includes(url.hostname) ? [url.hostname, ...loopback.filter((host) => host !== url.hostname)] : [url.hostname];
  const redirectUris = hosts.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}${url.pathname}`);
  return { clientId: CONSOLE_CLIENT.clientId, name: CONSOLE_CLIENT.name, redirectUris, scopes: [...CONSOLE_CLIENT.scopes] };
}

/** The engine's authorization endpoint below the issuer. */
const AUTHORIZATION_PATH = '/auth';

/**
 * OpenID Connect honours `offline_access` only with `prompt=consent` (Core 1.0 §11) unless
 * "other conditions permitting offline access" hold — here they do: every client is first
 * party and consent is granted without asking (grants.ts). A request asking for
 * `offline_access` without any `prompt` is read as asking for consent, so a client gets its
 * refresh token without knowing the rule; an explicit `prompt` is left as it is.
 */
function askConsentForOfflineAccess(ctx: Context, publicPath: string): void {
  const query = new URLSearchParams(ctx.querystring);
  if (query.has('prompt') || query.has('request_uri') || !(query.get('scope') ?? '').split(' ').includes('offline_access')) return;
  query.set('prompt', 'consent');
  ctx.querystring = query.toString();
  // The engine finds its mount path as `originalUrl` minus `url`: keep them in step.
  (ctx.req as IncomingMessage & { originalUrl?: string }).originalUrl = `${publicPath}${ctx.req.url}`;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Lifetimes (docs/adr/0016). */
export const PROVIDER_TTL = {
  accessToken: 15 * MINUTE,
  authorizationCode: MINUTE,
  idToken: HOUR,
  /** Each rotation gives a new 30 days, like the REST sign-in's refresh tokens. */
  refreshToken: 30 * DAY,
  /** The provider's own sign-in (its session cookie): a day, then the password again. */
  session: DAY,
  interaction: 30 * MINUTE,
  /** A refresh chain ends with its grant: a year after the last sign-in. */
  grant: 365 * DAY,
} as const;

export interface OpenIdProviderDeps {
  readonly root: EntityManager;
  readonly box: SecretBox;
  readonly signIn: SignInFlow;
  readonly attempts: AttemptCounter;
  readonly clients: OidcClientsService;
  readonly logger: Logger;
  /** What names the resource of its access tokens, the research workspace API (`SITE_BASE_URL`, …). */
  readonly workspace: WorkspaceSettings;
}

interface Built {
  readonly provider: Provider;
  readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  readonly interactions: InteractionPages;
  readonly publicPath: string;
}

/**
 * The operations service as an OpenID provider (docs/adr/0016), on `oidc-provider`: issuer
 * `<PUBLIC_BASE_URL or the bound origin>/oidc`, authorization code with PKCE (S256, every
 * client), rotating refresh tokens with `offline_access`, JWT access tokens for the research
 * workspace API (`{site_url}/api/chat`), RP-initiated logout and revocation. Its accounts and sign-in are the
 * operations service's; its state lives in PostgreSQL and its keys are sealed there, so any
 * number of instances serve it alike. Built on the first request, once the origin is known.
 */
export class OpenIdProvider {
  private readonly accounts: ProviderAccounts;
  private readonly store: OidcStore;
  private built: Promise<Built> | undefined;

  constructor(private readonly deps: OpenIdProviderDeps) {
    this.accounts = new ProviderAccounts(deps.root);
    this.store = new OidcStore(deps.root, (clientId) => deps.clients.metadata(deps.root.fork(), clientId));
  }

  /** The HTTP mount of `SubgraphModule.http`: everything under `/oidc`. */
  mount(origin: PublicOrigin): HttpMount {
    const middleware: Middleware = async (ctx) => {
      let built: Built;
      try {
        built = await this.provider(origin);
      } catch (error) {
        ((ctx.state.logger as Logger | undefined) ?? this.deps.logger).error({ err: error }, 'the OpenID provider could not start');
        ctx.status = 503;
        ctx.set('Retry-After', '5');
        ctx.body = { error: 'temporarily_unavailable', error_description: 'The OpenID provider is starting or its database is down.' };
        return;
      }
      const below = ctx.path.slice(OIDC_ISSUER_PATH.length) || '/';
      const interaction = INTERACTION_ROUTE.exec(below);
      if (interaction) {
        await built.interactions.handle(ctx, interaction[1]!, interaction[2] as InteractionAction | undefined);
        return;
      }
      await this.delegate(ctx, built);
    };
    return { prefix: OIDC_ISSUER_PATH, middleware };
  }

  /** Hands the request to the engine (a Koa app of its own) as if it were mounted at the issuer's path. */
  private async delegate(ctx: Context, built: Built): Promise<void> {
    const req = ctx.req as IncomingMessage & { originalUrl?: string };
    const url = req.url ?? '/';
    const rest = url.slice(OIDC_ISSUER_PATH.length);
    req.url = rest.startsWith('/') ? rest : `/${rest}`;
    // The engine derives its mount path from `originalUrl` minus `url`: the issuer's public path.
    req.originalUrl = `${built.publicPath}${req.url}`;
    ctx.respond = false;
    await built.handle(req, ctx.res);
  }

  /** The engine, built once (a failed build is retried by the next request). */
  private provider(origin: PublicOrigin): Promise<Built> {
    this.built ??= this.build(origin()).catch((error: unknown) => {
      this.built = undefined;
      throw error;
    });
    return this.built;
  }

  private async build(origin: string): Promise<Built> {
    const { root, box, logger } = this.deps;
    const issuer = `${origin}${OIDC_ISSUER_PATH}`;
    const issuerUrl = new URL(issuer);
    const publicPath = issuerUrl.pathname.replace(/\/+$/, '');
    // `{site_url}/api/chat`, named exactly as the workspace API's guard and its metadata name it.
    const { resource } = workspaceResource(this.deps.workspace, origin);
    const keys = await loadProviderKeys(root, box, logger);
    await this.store.purge();
    await this.deps.clients.ensurePublic(root.fork(), consoleClient(origin));
    const configuration: Configuration = {
      adapter: this.store.factory,
      jwks: { keys: keys.signing },
      cookies: {
        keys: keys.cookies,
        names: { session: 'qantara_oidc_session', interaction: 'qantara_oidc_interaction', resume: 'qantara_oidc_resume' },
        long: { httpOnly: true, sameSite: 'lax', path: publicPath },
        short: { httpOnly: true, sameSite: 'lax' },
      },
      claims: { acr: null, auth_time: null, iss: null, sid: null, ...SCOPE_CLAIMS } as unknown as Configuration['claims'],
      scopes: [...OIDC_SCOPES],
      responseTypes: ['code'],
      clientAuthMethods: ['none', 'client_secret_basic'],
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: SIGNING_ALG,
      },
      pkce: { required: () => true },
      conformIdTokenClaims: false,
      findAccount: (_ctx, sub) => this.accounts.find(sub),
      loadExistingGrant: firstPartyGrant,
      extraTokenClaims: async (_ctx, token) => {
        if (token.kind !== 'AccessToken' || !token.accountId || !token.scopes.has(WORKSPACE_SCOPE)) return undefined;
        const claims = await this.accounts.claims(token.accountId);
        return claims ? { org: claims.org, roles: claims.roles, email: claims.email, name: claims.name } : undefined;
      },
      rotateRefreshToken: () => true,
      ttl: {
        AccessToken: PROVIDER_TTL.accessToken,
        AuthorizationCode: PROVIDER_TTL.authorizationCode,
        IdToken: PROVIDER_TTL.idToken,
        RefreshToken: PROVIDER_TTL.refreshToken,
        Session: PROVIDER_TTL.session,
        Interaction: PROVIDER_TTL.interaction,
        Grant: PROVIDER_TTL.grant,
      },
      interactions: { url: (_ctx, interaction) => `${publicPath}/interaction/${interaction.uid}` },
      clientBasedCORS: (ctx, requestOrigin, client) =>
        (client.clientAuthMethod === 'none' || ctx.oidc.route === 'userinfo') &&
        (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === requestOrigin),
      features: {
        devInteractions: { enabled: false },
        claimsParameter: { enabled: false },
        userinfo: { enabled: true },
        revocation: {
          enabled: true,
          // A client revokes only its own tokens; a public client's attempt at another's is ignored.
          allowedPolicy: (ctx, client, token) => {
            if (token.clientId === client.clientId) return true;
            if (client.clientAuthMethod === 'none') return false;
            throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
          },
        },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: (ctx, form) => this.page(ctx, logoutPage(form)),
          postLogoutSuccessSource: (ctx) => this.page(ctx, loggedOutPage(ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId)),
        },
        resourceIndicators: {
          enabled: true,
          defaultResource: (_ctx, _client, oneOf) => (Array.isArray(oneOf) && !oneOf.includes(resource) ? oneOf : resource),
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resource) throw new errors.InvalidTarget();
            return {
              scope: WORKSPACE_SCOPE,
              audience: resource,
              accessTokenTTL: PROVIDER_TTL.accessToken,
              accessTokenFormat: 'jwt',
              jwt: { sign: { alg: SIGNING_ALG } },
            };
          },
        },
      },
      renderError: (ctx, out) => {
        this.page(ctx, errorPage(out as unknown as Record<string, unknown>));
      },
    };
    const provider = new Provider(issuer, configuration);
    // Every URL the engine makes (discovery, redirects, cookies' security) comes from the issuer, never from the request's Host.
    provider.use(async (ctx, next) => {
      Object.defineProperty(ctx.request, 'host', { value: issuerUrl.host, configurable: true });
      Object.defineProperty(ctx.request, 'protocol', { value: issuerUrl.protocol.slice(0, -1), configurable: true });
      if (ctx.path === AUTHORIZATION_PATH && ctx.method === 'GET') askConsentForOfflineAccess(ctx, publicPath);
      await next();
    });
    provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) => logger.error({ err: error }, 'OpenID provider error'));
    // Koa's own 'error' event (oidc-provider's typings leave it out): logged, never printed to stderr.
    (provider as unknown as NodeJS.EventEmitter).on('error', (error: Error) => logger.error({ err: error }, 'OpenID provider error'));
    logger.info({ issuer, resource }, 'OpenID provider ready');
    const callback = provider.callback();
    return {
      provider,
      handle: async (req, res) => {
        await callback(req, res);
      },
      interactions: new InteractionPages({
        provider,
        publicPath,
        origin: () => origin,
        root,
        signIn: this.deps.signIn,
        attempts: this.deps.attempts,
        logger,
      }),
      publicPath,
    };
  }

  private page(ctx: KoaContextWithOIDC, html: string): void {
    ctx.type = 'html';
    ctx.set(PAGE_HEADERS);
    ctx.body = html;
  }
}
