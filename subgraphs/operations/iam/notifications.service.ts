import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import { Notification, type iamListNotifications } from '../../../contracts/operations/notifications.contract.js';
import type { z } from 'zod';
import type { Mailer } from '../../shared/mailer.js';
import { afterCommit } from '../core/after-commit.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import type { SystemRoleBook } from '../core/system-roles.js';
import { OperationsError } from '../operations.errors.js';

const TABLE = '"operations"."notification"';
const toNotification = recordMapper<z.output<typeof Notification>>(Notification);

/** A notice for the users whose roles may call an operation, e.g. approve what was submitted. */
export interface Notice {
  readonly type: string;
  readonly title: string;
  readonly body: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * In-app notifications, each also mailed (SMTP, or an `.eml` file under `DATA_DIR/mail`).
 * Who is told is read from the organization's system-roles book: the active users holding a
 * role whose permissions name the operation they are asked to perform.
 */
export class NotificationsService {
  constructor(
    private readonly mailer: Mailer,
    private readonly roles: SystemRoleBook,
  ) {}

  list(em: EntityManager, caller: Principal, input: ContractInput<typeof iamListNotifications>) {
    return cursorList(
      em,
      {
        table: TABLE,
        where: [
          '"user_id" = ?',
          ...(input.unread === true ? ['"read_at" is null'] : input.unread === false ? ['"read_at" is not null'] : []),
        ],
        params: [caller.userId],
        orderBy: 'created_at',
        direction: 'desc',
      },
      input,
      toNotification,
    );
  }

  /** Marks the caller's own notification read (the first time counts); another user's is missing. */
  async markRead(em: EntityManager, caller: Principal, id: string) {
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `update ${TABLE} set "read_at" = coalesce("read_at", now()) where "id" = ? and "user_id" = ? returning *`,
      [id, caller.userId],
    );
    if (!row) throw OperationsError.notFound('Notification');
    return toNotification(row);
  }

  /**
   * Notifies, in the caller's transaction, every active user of the organization whose roles
   * may call `operation`; the mails go once the transaction commits. Returns who was told.
   */
  async notifyPermitted(em: EntityManager, organizationId: string, operation: string, notice: Notice): Promise<string[]> {
    const book = await this.roles.roles(organizationId, em);
    const codes = [...book].filter(([, grant]) => grant.permissions.has(operation)).map(([code]) => code);
    if (codes.length === 0) return [];
    const users = await em.execute<Array<{ id: string; email: string }>>(
      `select "id", "email" from "operations"."app_user"
       where "organization_id" = ? and "active" and "banned_at" is null and "roles" && ?::text[] order by "id"`,
      [organizationId, `{${codes.join(',')}}`],
    );
    for (const user of users) {
      await em.execute(
        `insert into ${TABLE} ("organization_id", "user_id", "type", "title", "body", "data") values (?, ?, ?, ?, ?, ?::jsonb)`,
        [organizationId, user.id, notice.type, notice.title, notice.body, JSON.stringify(notice.data)],
      );
      afterCommit(em, () => this.mailer.send({ to: user.email, subject: notice.title, text: notice.body }));
    }
    return users.map((user) => user.id);
  }
}
