import { iamListNotifications, iamMarkNotificationRead } from '../../../contracts/operations/notifications.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { NotificationsService } from './notifications.service.js';

/** The signed-in user's notifications bound to their service. */
export function notificationOperations(services: Services): Implementation[] {
  const notifications = services.get(NotificationsService);
  return [
    implement(iamListNotifications, (input, { ctx, caller }) => notifications.list(ctx.em, caller, input)),
    implement(iamMarkNotificationRead, (input, { ctx, caller }) => notifications.markRead(ctx.em, caller, input.id)),
  ];
}
