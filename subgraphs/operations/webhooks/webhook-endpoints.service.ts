import type { EntityManager } from '@mikro-orm/postgresql';
import type { BodyOf, ContractInput } from '../../../contracts/operation.js';
import type { webhooksCreateEndpoint, webhooksUpdateEndpoint } from '../../../contracts/operations/webhooks.contract.js';
import { WEBHOOK_PING_EVENT, WebhookEndpoint, type WebhookEndpointData } from '../../../contracts/operations/webhooks-types.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { entityCursorList } from '../core/cursor-list.js';
import { publishEvent } from '../core/events.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';
import { WebhookError } from './webhook.errors.js';
import { newWebhookSecret, PREVIOUS_SECRET_HOURS } from './webhook-secret.js';
import { checkTarget, TargetRefused, type TargetPolicy } from './webhook-target.js';
import { WebhookEndpointEntity, type WebhookEndpoint as EndpointRecord } from './webhook-endpoint.entity.js';

/** Endpoints an organization may have: each costs a request per event, and a runaway script should hit a wall. */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 50;

const ENTITY = 'WebhookEndpoint';
const toEndpoint = recordMapper<WebhookEndpointData>(WebhookEndpoint) as (endpoint: EndpointRecord) => WebhookEndpointData;

export type NewEndpoint = ContractInput<typeof webhooksCreateEndpoint>;
export type EndpointChange = BodyOf<typeof webhooksUpdateEndpoint>;

/** The same pattern given twice is one. */
const distinct = (types: readonly string[]) => [...new Set(types)];

/**
 * Webhook endpoints of the caller's organization (every statement runs in the call's tenant
 * transaction, so row-level security hides other organizations' endpoints: a foreign id is
 * as missing as an unknown one). The signing secret is generated here, answered once and
 * stored sealed with `SECRETS_KEY`.
 */
export class WebhookEndpointsService {
  constructor(
    private readonly box: SecretBox,
    private readonly targets: TargetPolicy = { allowPrivate: false },
  ) {}

  /**
   * Refuses a URL that names or resolves to an internal address (422 on `url`). A name that
   * does not resolve now is accepted: every delivery resolves and checks it again.
   */
  private async checkUrl(url: string): Promise<void> {
    try {
      await checkTarget(url, this.targets);
    } catch (error) {
      if (error instanceof TargetRefused) throw WebhookError.targetRefused(error.message);
    }
  }

  async create(em: EntityManager, principal: Principal, input: NewEndpoint) {
    await this.checkUrl(input.url);
    // raw SQL: a transaction-scoped advisory lock serialises creations per organization so the limit holds under concurrency.
    await em.execute(`select pg_advisory_xact_lock(hashtextextended('webhook_endpoint:' || ?, 0))`, [principal.organizationId]);
    const endpoints = await em.count(WebhookEndpointEntity, {});
    if (endpoints >= MAX_ENDPOINTS_PER_ORGANIZATION) throw WebhookError.endpointLimitReached(MAX_ENDPOINTS_PER_ORGANIZATION);
    const secret = newWebhookSecret();
    const endpoint = em.create(WebhookEndpointEntity, {
      // The route admits organization members only: the tenant policy refuses any other value.
      organizationId: principal.organizationId!,
      url: input.url,
      eventTypes: distinct(input.eventTypes),
      description: input.description,
      active: input.active,
      secretSealed: this.box.seal(secret),
    });
    await em.flush();
    return { ...toEndpoint(endpoint), secret };
  }

  list(em: EntityManager, page: { cursor?: string; limit: number }) {
    return entityCursorList(em, { entity: WebhookEndpointEntity, orderBy: 'createdAt' }, page, toEndpoint);
  }

  private async endpoint(em: EntityManager, id: string): Promise<EndpointRecord> {
    const endpoint = await em.findOne(WebhookEndpointEntity, { id });
    if (!endpoint) throw OperationsError.notFound(ENTITY);
    return endpoint;
  }

  async get(em: EntityManager, id: string): Promise<WebhookEndpointData> {
    return toEndpoint(await this.endpoint(em, id));
  }

  async update(em: EntityManager, id: string, change: EndpointChange): Promise<WebhookEndpointData> {
    if (change.url !== undefined) await this.checkUrl(change.url);
    const endpoint = await this.endpoint(em, id);
    em.assign(endpoint, {
      url: change.url ?? endpoint.url,
      eventTypes: change.eventTypes ? distinct(change.eventTypes) : endpoint.eventTypes,
      description: change.description ?? endpoint.description,
      active: change.active ?? endpoint.active,
      updatedAt: new Date(),
    });
    await em.flush();
    return toEndpoint(endpoint);
  }

  async remove(em: EntityManager, id: string): Promise<{ id: string; deleted: true }> {
    const deleted = await em.nativeDelete(WebhookEndpointEntity, { id });
    if (deleted === 0) throw OperationsError.notFound(ENTITY);
    return { id, deleted: true };
  }

  /** A new secret; the previous one keeps signing alongside for a day so receivers can switch without a gap. */
  async rotateSecret(em: EntityManager, id: string) {
    const secret = newWebhookSecret();
    const endpoint = await this.endpoint(em, id);
    const now = new Date();
    em.assign(endpoint, {
      previousSecretSealed: endpoint.secretSealed,
      previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_HOURS * 3_600_000),
      secretSealed: this.box.seal(secret),
      secretRotatedAt: now,
      updatedAt: now,
    });
    await em.flush();
    return { ...toEndpoint(endpoint), secret };
  }

  /** A `webhook.ping` event through the outbox like any other; the dispatcher sends it to this endpoint alone. */
  async ping(em: EntityManager, principal: Principal, id: string) {
    await this.get(em, id);
    const eventId = await publishEvent(em, {
      type: WEBHOOK_PING_EVENT,
      organizationId: principal.organizationId,
      payload: { endpointId: id },
    });
    return { eventId, type: WEBHOOK_PING_EVENT };
  }
}
