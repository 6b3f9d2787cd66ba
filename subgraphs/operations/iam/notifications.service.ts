import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import { Notification, type iamListNotifications } from '../../../contracts/operations/notifications.contract.js';
import type { z } from 'zod';
import type { Mailer } from '../../shared/mailer.js';
import { afterCommit } from '../core/after-commit.js';
import { entityCursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import type { SystemRoleBook } from '../core/system-roles.js';
import { OperationsError } from '../operations.errors.js';
import { AppUserEntity } from './app-user.entity.js';
import { NotificationEntity, type Notification as NotificationRecord } from './notification.entity.js';

const toNotification = recordMapper<z.output<typeof Notification>>(Notification) as (
  notification: NotificationRecord,
) => z.output<typeof Notification>;

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
    const read = input.unread === true ? { readAt: null } : input.unread === false ? { readAt: { $ne: null } } : {};
    return entityCursorList(
      em,
      { entity: NotificationEntity, owner: { userId: caller.userId }, where: read, orderBy: 'createdAt', direction: 'desc' },
      input,
      toNotification,
    );
  }

  /** Marks the caller's own notification read (the first time counts); another user's is missing. */
  async markRead(em: EntityManager, caller: Principal, id: string) {
    const notification = await em.findOne(NotificationEntity, { id, userId: caller.userId });
    if (!notification) throw OperationsError.notFound('Notification');
    notification.readAt ??= new Date();
    await em.flush();
    return toNotification(notification);
  }

  /**
   * Notifies, in the caller's transaction, every active user of the organization whose roles
   * may call `operation`; the mails go once the transaction commits. Returns who was told.
   */
  async notifyPermitted(em: EntityManager, organizationId: string, operation: string, notice: Notice): Promise<string[]> {
    const book = await this.roles.roles(organizationId, em);
    const codes = [...book].filter(([, grant]) => grant.permissions.has(operation)).map(([code]) => code);
    if (codes.length === 0) return [];
    const users = await em.find(
      AppUserEntity,
      { organizationId, active: true, bannedAt: null, roles: { $overlap: codes } },
      { orderBy: { id: 'asc' } },
    );
    for (const user of users) {
      em.create(NotificationEntity, {
        organizationId,
        userId: user.id,
        type: notice.type,
        title: notice.title,
        body: notice.body,
        data: { ...notice.data },
      });
      afterCommit(em, () => this.mailer.send({ to: user.email, subject: notice.title, text: notice.body }));
    }
    await em.flush();
    return users.map((user) => user.id);
  }
}
