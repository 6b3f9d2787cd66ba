import { z } from 'zod';

/** GraphQL types of keys, plans and usage (camelCase); the REST bodies are in `account-wire.ts`. */

const limitsShape = {
  rpm: z.int().describe('Calls per minute.'),
  rpd: z.int().describe('Calls per UTC day (the key’s own quota when an admin set one).'),
  maxLimit: z.int().describe('Largest retrieval `limit` allowed.'),
};

export const LibraryLimits = z.object(limitsShape).meta({ id: 'LibraryLimits', description: 'Limits in force for a key.' });

export const LibraryPlan = z
  .object({
    ...limitsShape,
    name: z.string(),
    description: z.string(),
    selfService: z.boolean().describe('Whether self-service registration issues keys on this plan.'),
  })
  .meta({ id: 'LibraryPlan', description: 'A plan of the library API.' });

export const LibraryIssuedKey = z
  .object({ id: z.int(), key: z.string(), plan: z.string(), limits: LibraryLimits })
  .meta({ id: 'LibraryIssuedKey', description: 'A key just issued. `key` is shown this once and can never be read again.' });

export const LibraryKey = z
  .object({
    id: z.int(),
    prefix: z.string().describe('First characters of the key, to tell keys apart.'),
    email: z.string(),
    org: z.string().nullable(),
    plan: z.string(),
    status: z.string().describe('`active`, `suspended` or `revoked`.'),
    rpdOverride: z.int().nullable().describe('Daily quota set by an admin in place of the plan’s.'),
    limits: LibraryLimits,
    createdAt: z.string().describe('ISO 8601.'),
    lastUsedAt: z.string().nullable().describe('ISO 8601 time of the last counted call.'),
  })
  .meta({ id: 'LibraryKey', description: 'An API key as its owner and admins see it (never the key itself).' });

/**
 * The Qantara account (`User`, owned by operations) as the library sees it: its key, and the
 * library keys it created signed in (`POST /v1/me/keys`) (docs/adr/0039).
 */
export const LibraryAccount = z
  .object({
    id: z.uuid(),
    libraryKeys: z.array(LibraryKey).nullable().meta({
      args: {},
      description:
        'The library keys this account created signed in (`POST /v1/me/keys`), oldest first; never the keys themselves. Only the account itself (or the super-admin) sees them.',
    }),
  })
  .meta({ id: 'User', key: 'id' });

export const LibraryRateWindow = z
  .object({ limit: z.int(), remaining: z.int(), reset: z.number().describe('When the window resets, in epoch seconds.') })
  .meta({ id: 'LibraryRateWindow', description: 'One counting window of a key.' });

export const LibraryMe = z
  .object({ key: LibraryKey, usedToday: z.int(), usedThisMinute: z.int(), minute: LibraryRateWindow, day: LibraryRateWindow })
  .meta({ id: 'LibraryMe', description: 'The calling key and its consumption (this call included).' });

const LibraryOperationCalls = z.object({ operation: z.string(), calls: z.int() }).meta({ id: 'LibraryOperationCalls' });

const LibraryUsageDay = z
  .object({ date: z.string().describe('YYYY-MM-DD (UTC).'), calls: z.int(), byOperation: z.array(LibraryOperationCalls) })
  .meta({ id: 'LibraryUsageDay', description: 'Calls of one UTC day.' });

export const LibraryUsage = z
  .object({
    days: z.int().describe('Days covered (at most 90).'),
    from: z.string(),
    to: z.string(),
    total: z.int(),
    rows: z.array(LibraryUsageDay),
  })
  .meta({ id: 'LibraryUsage', description: 'Consumption of the last `days` UTC days, newest first.' });

const LibraryNamedCount = z.object({ name: z.string(), count: z.int() }).meta({ id: 'LibraryNamedCount' });
const LibraryTopKey = z.object({ key: LibraryKey, callsToday: z.int() }).meta({ id: 'LibraryTopKey' });

export const LibraryAdminStats = z
  .object({
    keysTotal: z.int(),
    keysByPlan: z.array(LibraryNamedCount),
    keysByStatus: z.array(LibraryNamedCount),
    callsToday: z.int(),
    topKeys: z.array(LibraryTopKey),
  })
  .meta({ id: 'LibraryAdminStats', description: 'Keys by plan and status, calls today and the busiest keys.' });

export type LibraryKeyData = z.output<typeof LibraryKey>;
export type LibraryIssuedKeyData = z.output<typeof LibraryIssuedKey>;
export type LibraryPlanData = z.output<typeof LibraryPlan>;
