import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBGRAPHS } from '../../../subgraphs/index.js';
import { MessageEntity } from '../../../subgraphs/research/threads/thread.entity.js';
import { ResearchRunEntity } from '../../../subgraphs/research/runs/research-run.entity.js';
import { unqueuedIds } from '../../../subgraphs/research/unqueued.js';
import { migratedDatabase, type MigratedDatabase } from '../../support/migrated-database.js';

/** What the research consumers' `recover` queues again, below HTTP: rows written directly, read through the helper. */

let database: MigratedDatabase;
let db: pg.Client;

beforeAll(async () => {
  database = await migratedDatabase(SUBGRAPHS.research.database);
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  await db.query(`insert into research.workspace ("id", "name", "kind") values ('ws_1', 'Recovery', 'admin')`);
  await db.query(
    `insert into research.thread ("id", "workspace_id", "mode", "anamnesis", "anamnesis_hash", "gap_assessment")
     values ('thread_1', 'ws_1', 'test', '{}', 'h', '{}')`,
  );
});
afterAll(async () => {
  await db?.end();
  await database?.close();
});

/** A run in `status`, written `secondsAgo` seconds ago. */
async function run(id: string, status: string, secondsAgo: number): Promise<void> {
  await db.query(
    `insert into research.research_run ("id", "thread_id", "workspace_id", "mode", "status", "anamnesis", "anamnesis_hash",
       "gap_assessment", "credits_charged", "created_at")
     values ($1, 'thread_1', 'ws_1', 'test', $2, '{}', 'h', '{}', 30, now() - make_interval(secs => $3))`,
    [id, status, secondsAgo],
  );
}

/** A message in `status`, at `position`, written `secondsAgo` seconds ago. */
async function message(id: string, position: number, status: string, secondsAgo: number): Promise<void> {
  await db.query(
    `insert into research.message ("id", "thread_id", "position", "role", "content", "status", "created_at")
     values ($1, 'thread_1', $2, 'assistant', '', $3, now() - make_interval(secs => $4))`,
    [id, position, status, secondsAgo],
  );
}

describe('rows accepted but never queued', () => {
  it('answers the queued runs older than five seconds, oldest first, and none younger or past queued', async () => {
    await run('run_young', 'queued', 1);
    await run('run_newer', 'queued', 60);
    await run('run_older', 'queued', 120);
    await run('run_running', 'running', 120);
    await run('run_failed', 'failed', 120);
    expect(await unqueuedIds(database.orm, ResearchRunEntity, 'queued')).toEqual(['run_older', 'run_newer']);
  });

  it('answers the pending messages older than five seconds and none complete or younger', async () => {
    await message('msg_young', 1, 'pending', 1);
    await message('msg_old', 2, 'pending', 30);
    await message('msg_done', 3, 'complete', 30);
    expect(await unqueuedIds(database.orm, MessageEntity, 'pending')).toEqual(['msg_old']);
  });
});
