import pg from 'pg';
import type { ForeignRecords } from './types.js';

/**
 * A notification of the other organization's Admin. Written in SQL, under that organization's
 * tenant setting: the organization has no approvers and no fuel data, and a notice is only
 * ever written as the side effect of a submission there.
 */
export const notificationForeignRecords: ForeignRecords = async (context) => {
  const db = new pg.Client({ connectionString: context.stack.databaseUrl });
  await db.connect();
  try {
    await db.query('begin');
    await db.query(`select set_config('app.organization_id', $1, true)`, [context.organizationId]);
    const { rows } = await db.query<{ id: string }>(
      `insert into operations.notification (organization_id, user_id, type, title, body)
       values ($1, $2, 'scm.fuel.supply-request.submitted', 'A fuel supply request awaits your approval', 'Theirs') returning id`,
      [context.organizationId, context.admin.userId],
    );
    await db.query('commit');
    return { '/api/v1/iam/notifications': rows[0]!.id };
  } finally {
    await db.end();
  }
};
