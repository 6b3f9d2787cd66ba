import { libraryKey } from '../contracts/access.js';
import 'reflect-metadata';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { createLogger } from '../runtime/logger.js';
import { LibraryAccess } from '../subgraphs/library/accounts/access.service.js';
import { issueKey } from '../subgraphs/library/accounts/key-issuer.js';
import { UsageRepository } from '../subgraphs/library/accounts/usage.repository.js';
import { libraryModule } from '../subgraphs/library/library.module.js';
import type { SubgraphContext } from '../subgraphs/shared/context.js';
import { migrate, openOrm } from '../subgraphs/shared/orm.js';
import { table } from './report.js';

const CALLS = 3000;

function percentiles(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)]!, p99: sorted[Math.floor(sorted.length * 0.99)]! };
}

/**
 * Times `LibraryAccess.admit` itself, sequentially, against an embedded PostgreSQL:
 * with a real key (one round trip; the count commits asynchronously, docs/adr/0002) and with the bench-only
 * unmetered option (no database work), each on a fresh forked EntityManager as a
 * request would have.
 */
export async function measureAdmission(dataDir: string): Promise<string> {
  const logger = createLogger('silent');
  const database = await startEmbeddedPostgres(join(dataDir, 'postgres'));
  const orm = await openOrm(libraryModule.database, { databaseUrl: database.url, logger });
  try {
    await migrate(orm, libraryModule.database, database.url, logger);
    const issued = await issueKey(orm.em.fork(), { email: 'bench@example.org', org: null, plan: 'unlimited', source: 'admin' }, new Date());
    const context = (): SubgraphContext => ({
      em: orm.em.fork(),
      headers: { authorization: `Bearer ${issued.key}` },
      requestId: 'bench',
      clientIp: undefined,
      logger,
      extensions: {},
    });
    const run = async (access: LibraryAccess) => {
      const times: number[] = [];
      for (let call = 0; call < CALLS + 200; call += 1) {
        const started = performance.now();
        await access.admit(context(), libraryKey('usage'));
        if (call >= 200) times.push(performance.now() - started);
      }
      return percentiles(times);
    };
    const metered = await run(new LibraryAccess(new UsageRepository()));
    const unmetered = await run(new LibraryAccess(new UsageRepository(), { unmeteredKeyId: issued.id }));
    const ms = (value: number) => value.toFixed(3);
    return `${CALLS} sequential calls after 200 warm-up calls, each on a fresh forked EntityManager. Latencies in ms.

${table(
  ['configuration', 'p50', 'p99'],
  [
    ['metered: `library.admit_call` (lookup + count + log, one round trip)', ms(metered.p50), ms(metered.p99)],
    ['limits disabled (bench-only)', ms(unmetered.p50), ms(unmetered.p99)],
    ['**added per call**', `**${ms(metered.p50 - unmetered.p50)}**`, `**${ms(metered.p99 - unmetered.p99)}**`],
  ],
)}`;
  } finally {
    await orm.close(true);
    await database.stop();
  }
}
