import { z } from 'zod';
import { RESEARCH_SCOPES } from '../access.js';

/** Workspaces, keys, credits and top-ups of the research service. */

export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

export const Scope = z.enum(RESEARCH_SCOPES).meta({ id: 'ResearchScope', description: 'A Variant A scope.' });
export const KeyMode = z
  .enum(KEY_MODES)
  .meta({ id: 'ResearchKeyMode', description: '`live` or `test`: test keys run on a sandbox (offline providers, no payment).' });

export const ApiKey = z
  .object({
    id: z.string().describe('`key_…`'),
    name: z.string(),
    prefix: z.string().describe('The first 12 characters of the secret, to tell keys apart.'),
    mode: KeyMode,
    scopes: z.array(Scope),
    status: z.enum(['active', 'revoked']).meta({ id: 'ResearchApiKeyStatus' }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().describe('Updated at most once a minute.'),
    rotatedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'ResearchApiKey', description: 'A workspace key; its secret is never shown again.' });
export type ApiKeyData = z.output<typeof ApiKey>;

export const IssuedApiKey = ApiKey.extend({
  key: z.string().describe('The secret, shown this once: `rk_live_…` or `rk_test_…`.'),
}).meta({ id: 'ResearchIssuedApiKey', description: 'A key with its secret, returned once at creation or rotation.' });

export const ApiKeyList = z.object({ apiKeys: z.array(ApiKey) }).meta({ id: 'ResearchApiKeyList' });

/** How `ResearchWorkspace.owner` is typed: the account's own type names the workspace back. */
type OwnerField = z.ZodOptional<z.ZodType<{ id: string } | null>>;
let ownerField: OwnerField | undefined;

export const Workspace = z
  .object({
    id: z.string().describe('`ws_…`'),
    name: z.string(),
    createdAt: z.string(),
    creditBalance: z
      .int()
      .nullable()
      .optional()
      .meta({ args: {}, description: 'Live credits the workspace holds (GraphQL only; REST: `GET /api/chat/billing`).' }),
    // A getter: the account and its workspace name each other.
    get owner(): OwnerField {
      return (ownerField ??= WorkspaceAccount.nullable().optional().meta({
        args: {},
        description:
          'The Qantara account that signed in with our OpenID provider and owns the workspace (GraphQL only); null for a workspace made by the admin, the demo, or another identity provider’s user.',
      }) as OwnerField);
    },
  })
  .meta({ id: 'ResearchWorkspace' });

/**
 * The Qantara account (`User`, owned by operations) as research sees it: its key, and the
 * workspace it opened by signing in through our OpenID provider (docs/adr/0039).
 */
export const WorkspaceAccount = z
  .object({
    id: z.uuid(),
    researchWorkspace: Workspace.nullable().meta({
      args: {},
      description:
        'The research workspace of this account: the one its first call to `/api/chat` with our OpenID provider’s access token made; null before that. Only the account itself (or the super-admin) sees it.',
    }),
  })
  .meta({ id: 'User', key: 'id' });

export const WorkspaceCreated = z
  .object({ workspace: Workspace, apiKey: IssuedApiKey })
  .meta({ id: 'ResearchWorkspaceCreated', description: 'A new workspace and its first key (scope `api_keys_admin`), shown once.' });

export const CreditGrant = z
  .object({
    entryId: z.string().describe('The ledger entry.'),
    workspaceId: z.string(),
    mode: KeyMode,
    credits: z.int(),
    reason: z.string(),
    creditBalance: z.int().describe('The balance after the grant.'),
  })
  .meta({ id: 'ResearchCreditGrant' });

export const Ping = z
  .object({
    grantedScopes: z.array(z.string()),
    ok: z.boolean(),
    supportedRouteGroups: z.array(z.string()).describe('`mcp`, `billing`, `threads`.'),
  })
  .meta({ id: 'ResearchPing' });

export const TopUpOption = z.object({ creditQuantity: z.int(), usdQuantity: z.int() }).meta({ id: 'ResearchTopUpOption' });

export const Billing = z
  .object({
    chatTurnBillingMode: z.string(),
    chatTurnMaxReserveCredits: z.int(),
    creditBalance: z.int(),
    currency: z.string(),
    pricePer100CreditsUsd: z.number(),
    researchRunBillingMode: z.string(),
    researchRunPriceCredits: z.int(),
    topUpEndpoint: z.string().describe('The top-up operation (an absolute URL on REST).'),
    topUpOptions: z.array(TopUpOption),
    topUpScope: z.string(),
  })
  .meta({ id: 'ResearchBilling', description: 'Balance, pricing and top-up options of the key’s workspace (and mode).' });

export const TopUp = z
  .object({
    id: z.string().describe('The checkout session id (`cs_…`).'),
    url: z.string().describe('Where to pay: the hosted checkout page.'),
    status: z.enum(['open', 'complete']).meta({ id: 'ResearchTopUpStatus' }),
    sandbox: z.boolean().describe('A test key’s top-up: completed at once, nothing paid.'),
    usdQuantity: z.int(),
    creditQuantity: z.int(),
    expiresAt: z.string().nullable(),
  })
  .meta({ id: 'ResearchTopUp', description: 'A hosted checkout session; credits arrive when it is paid.' });

export const WebhookReceipt = z
  .object({
    received: z.boolean(),
    credited: z.boolean().describe('Whether this delivery credited the workspace (never twice per session).'),
    credits: z.int(),
  })
  .meta({ id: 'ResearchWebhookReceipt' });

/** Top-up suggestions; any whole number of dollars from 1 to 1000 is accepted. */
export const TOP_UP_OPTIONS = [10, 25, 50, 100].map((usd) => ({ creditQuantity: usd * 10, usdQuantity: usd }));
export const CREDITS_PER_USD = 10;
export const CHAT_TURN_CREDITS = 1;
export const RESEARCH_RUN_CREDITS = 30;
