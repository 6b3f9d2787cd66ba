import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../runtime/logger.js';
import { withAfterCommit } from '../../shared/after-commit.js';
import type { CreditLedger } from '../billing/credit-ledger.js';
import { ALL_SCOPES, type WorkspaceService } from './workspace.service.js';

export const DEMO_CREDITS = 300;

/**
 * The demo workspace (`DEMO_RESEARCH`, on by default): created once, with test credits and
 * a test key holding every scope, printed once in the start-up log. Test keys run on the
 * sandbox, so the demo costs nothing and calls no paid provider. A unique index allows one
 * demo workspace, so instances starting together create it once.
 */
export async function createDemoWorkspace(
  root: EntityManager,
  workspaces: WorkspaceService,
  ledger: CreditLedger,
  logger: Logger,
): Promise<void> {
  const created = await withAfterCommit(root, logger, async (tx) => {
    // raw SQL: a transaction-scoped advisory lock, so instances starting together create one demo.
    const [claim] = await tx.execute<Array<{ locked: boolean; exists: boolean }>>(
      `select pg_try_advisory_xact_lock(hashtext('research:demo-workspace')) as "locked",
         exists (select 1 from "research"."workspace" where "kind" = 'demo') as "exists"`,
    );
    if (!claim?.locked || claim.exists) return undefined;
    const demo = await workspaces.create(tx, {
      name: 'Demo workspace',
      kind: 'demo',
      keyName: 'Demo key',
      keyMode: 'test',
      scopes: ALL_SCOPES,
    });
    await ledger.post(tx, {
      workspaceId: demo.workspace.id,
      mode: 'test',
      delta: DEMO_CREDITS,
      kind: 'grant',
      reference: null,
      reason: 'demo',
    });
    return demo;
  });
  if (!created) return;
  // Shown once, in the message itself: structured fields named `key` are redacted from logs.
  logger.info(
    `research demo workspace ${created.workspace.id} created with ${DEMO_CREDITS} test credits; its test key (shown once): ${created.apiKey.key}`,
  );
}
