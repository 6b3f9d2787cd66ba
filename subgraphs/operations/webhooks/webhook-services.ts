import { SecretBox } from '../../shared/secret-box.js';
import type { SubgraphRuntime } from '../../shared/subgraph.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/**
 * The module's services: secrets sealed with `SECRETS_KEY` like the signing keys, and the
 * dispatcher on the database the ORM connects to, through connections of its own. Targets
 * on internal addresses are refused unless `WEBHOOK_ALLOW_PRIVATE` is set.
 */
export function webhookServices(runtime: SubgraphRuntime): readonly object[] {
  const box = SecretBox.fromConfig(runtime.config);
  const connectionString = runtime.orm.config.get('clientUrl');
  if (!connectionString) throw new Error('the webhook dispatcher needs the database URL the ORM connects with');
  const allowPrivate = runtime.config.webhookAllowPrivate;
  return [
    new WebhookEndpointsService(box, { allowPrivate }),
    new WebhookDeliveriesService(),
    new WebhookDispatcher(connectionString, box, runtime.logger.child({ component: 'webhooks' }), {
      allowPrivate,
      outboxRetentionDays: runtime.config.outboxRetentionDays,
    }),
  ];
}
