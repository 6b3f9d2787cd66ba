import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../../runtime/logger.js';
import { SUBGRAPHS } from '../../../subgraphs/index.js';
import { afterCommit, withAfterCommit } from '../../../subgraphs/shared/after-commit.js';
import { openOrm, type SubgraphOrm } from '../../../subgraphs/shared/orm.js';
import { createTestDatabase } from '../../support/database.js';

const silent = createLogger('silent');

describe('withAfterCommit, the one transaction helper', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let orm: SubgraphOrm;

  beforeAll(async () => {
    database = await createTestDatabase();
    orm = await openOrm(SUBGRAPHS.research.database, { databaseUrl: database.url, logger: silent });
    await orm.em.fork().execute('create table public.note (text text not null)');
  });
  afterAll(async () => {
    await orm?.close(true);
    await database?.drop();
  });
  beforeEach(async () => {
    await orm.em.fork().execute('truncate public.note');
  });

  const write = (tx: EntityManager, text: string) => tx.execute('insert into public.note (text) values (?)', [text]);
  /** What another connection sees: only committed rows. */
  const committed = async () =>
    (await orm.em.fork().execute<Array<{ text: string }>>('select text from public.note order by text')).map((row) => row.text);

  it('runs registered work after the commit, when another connection already sees the rows', async () => {
    const seenByWork: string[][] = [];
    const steps: string[] = [];
    const result = await withAfterCommit(orm.em.fork(), silent, async (tx) => {
      await write(tx, 'a');
      afterCommit(tx, async () => {
        steps.push('after commit');
        seenByWork.push(await committed());
      });
      steps.push('work done');
      expect(await committed()).toEqual([]);
      return 'answer';
    });
    expect(result).toBe('answer');
    expect(steps).toEqual(['work done', 'after commit']);
    expect(seenByWork).toEqual([['a']]);
  });

  it('runs nothing registered and keeps nothing written when the work fails', async () => {
    let ran = false;
    await expect(
      withAfterCommit(orm.em.fork(), silent, async (tx) => {
        await write(tx, 'a');
        afterCommit(tx, async () => {
          ran = true;
        });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(ran).toBe(false);
    expect(await committed()).toEqual([]);
  });

  it('joins an enclosing transaction: a nested call writes in it and its work waits for the outer commit', async () => {
    const steps: string[] = [];
    await withAfterCommit(orm.em.fork(), silent, async (outer) => {
      await write(outer, 'outer');
      await withAfterCommit(outer, silent, async (inner) => {
        await write(inner, 'inner');
        afterCommit(inner, async () => {
          steps.push(`inner work saw ${(await committed()).join(',')}`);
        });
      });
      steps.push('nested call returned');
      // Nothing is committed yet: the nested call's rows are the outer transaction's.
      expect(await committed()).toEqual([]);
      afterCommit(outer, async () => {
        steps.push('outer work');
      });
    });
    expect(steps).toEqual(['nested call returned', 'inner work saw inner,outer', 'outer work']);
  });

  it('drops a nested call’s writes and work with the outer transaction when that rolls back', async () => {
    let ran = false;
    await expect(
      withAfterCommit(orm.em.fork(), silent, async (outer) => {
        await withAfterCommit(outer, silent, async (inner) => {
          await write(inner, 'inner');
          afterCommit(inner, async () => {
            ran = true;
          });
        });
        throw new Error('outer refused');
      }),
    ).rejects.toThrow('outer refused');
    expect(ran).toBe(false);
    expect(await committed()).toEqual([]);
  });

  it('undoes only a failed nested call (its savepoint) when the outer transaction goes on', async () => {
    let ran = false;
    await withAfterCommit(orm.em.fork(), silent, async (outer) => {
      await write(outer, 'outer');
      await withAfterCommit(outer, silent, async (inner) => {
        await write(inner, 'inner');
        afterCommit(inner, async () => {
          ran = true;
        });
        throw new Error('inner refused');
      }).catch(() => undefined);
    });
    expect(ran).toBe(false);
    expect(await committed()).toEqual(['outer']);
  });

  it('logs a failure of work after the commit and still answers, the change committed', async () => {
    const warnings: unknown[] = [];
    const logger = { warn: (fields: unknown) => warnings.push(fields) } as unknown as Logger;
    const result = await withAfterCommit(orm.em.fork(), logger, async (tx) => {
      await write(tx, 'a');
      afterCommit(tx, () => Promise.reject(new Error('queue down')));
      return 'answer';
    });
    expect(result).toBe('answer');
    expect(await committed()).toEqual(['a']);
    expect(warnings).toEqual([{ err: new Error('queue down') }]);
  });

  it('refuses afterCommit on an entity manager that is no such transaction', () => {
    expect(() => afterCommit(orm.em.fork(), async () => undefined)).toThrow(/not a transaction/);
  });
});
