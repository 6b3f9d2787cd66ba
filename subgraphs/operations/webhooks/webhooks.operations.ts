import {
  webhooksCreateEndpoint,
  webhooksDeleteEndpoint,
  webhooksGetEndpoint,
  webhooksListDeliveries,
  webhooksListEndpoints,
  webhooksPingEndpoint,
  webhooksRetryDelivery,
  webhooksRotateEndpointSecret,
  webhooksUpdateEndpoint,
} from '../../../contracts/operations/webhooks.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/** Webhook endpoints and their delivery log (`/api/v1/webhooks`). */
export function webhookOperations(services: Services): Implementation[] {
  const endpoints = services.get(WebhookEndpointsService);
  const deliveries = services.get(WebhookDeliveriesService);
  return [
    implement(webhooksCreateEndpoint, (input, { ctx, caller }) => endpoints.create(ctx.em, caller, input)),
    implement(webhooksListEndpoints, (input, { ctx }) => endpoints.list(ctx.em, input)),
    implement(webhooksGetEndpoint, (input, { ctx }) => endpoints.get(ctx.em, input.id)),
    implement(webhooksUpdateEndpoint, (input, { ctx }) => {
      const { id, ...change } = input;
      return endpoints.update(ctx.em, id, change);
    }),
    implement(webhooksDeleteEndpoint, (input, { ctx }) => endpoints.remove(ctx.em, input.id)),
    implement(webhooksRotateEndpointSecret, (input, { ctx }) => endpoints.rotateSecret(ctx.em, input.id)),
    implement(webhooksPingEndpoint, (input, { ctx, caller }) => endpoints.ping(ctx.em, caller, input.id)),
    implement(webhooksListDeliveries, (input, { ctx }) => deliveries.list(ctx.em, input)),
    implement(webhooksRetryDelivery, (input, { ctx }) => deliveries.retry(ctx.em, input.id, input.deliveryId)),
  ];
}
