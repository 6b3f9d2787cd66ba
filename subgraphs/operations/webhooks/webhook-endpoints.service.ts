import type { EntityManager } from '@mikro-orm/postgresql';
import type { BodyOf, ContractInput } from '../../../contracts/operation.js';
import type { webhooksCreateEndpoint, webhooksUpdateEndpoint } from '../../../contracts/operations/webhooks.contract.js';
import { WEBHOOK_PING_EVENT, WebhookEndpoint, type WebhookEndpointData } from '../../../contracts/operations/webhooks-types.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { cursorList } from '../core/cursor-list.js';
import { publishEvent } from '../core/events.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';
import { WebhookError } from './webhook.errors.js';
import { newWebhookSecret, PREVIOUS_SECRET_HOURS } from './webhook-secret.js';
import { checkTarget, TargetRefused, type TargetPolicy } from './webhook-target.js';

/** Endpoints an organization may have: each costs a request per event, and a runaway script should hit a wall. */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 50;

const TABLE = `"operations"."webhook_endpoint"`;
const ENTITY = 'WebhookEndpoint';
const toEndpoint = recordMapper<WebhookEndpointData>(WebhookEndpoint);

export type NewEndpoint = ContractInput<typeof webhooksCreateEndpoint>;
export type EndpointChange = BodyOf<typeof webhooksUpdateEndpoint>;

/** The same pattern given twice is one. */
const distinct = (types: readonly string[] | undefined) => (types ? JSON.stringify([...new Set(types)]) : null);
/** A JSON array parameter as `text[]`, in its order (null stays null). */
const TEXT_ARRAY = `(select array_agg(t."value" order by t."n") from jsonb_array_elements_text(?::jsonb) with ordinality as t("value", "n"))`;

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
    // Serialises creations per organization so the limit holds under concurrency.
    await em.execute(`select pg_advisory_xact_lock(hashtextextended('webhook_endpoint:' || ?, 0))`, [principal.organizationId]);
    const [count] = await em.execute<Array<{ endpoints: number }>>(`select count(*)::int as "endpoints" from ${TABLE}`);
    if (count!.endpoints >= MAX_ENDPOINTS_PER_ORGANIZATION) throw WebhookError.endpointLimitReached(MAX_ENDPOINTS_PER_ORGANIZATION);
    const secret = newWebhookSecret();
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `insert into ${TABLE} ("organization_id", "url", "event_types", "description", "active", "secret_sealed")
       values (?, ?, ${TEXT_ARRAY}, ?, ?, ?) returning *`,
      [principal.organizationId, input.url, distinct(input.eventTypes), input.description, input.active, this.box.seal(secret)],
    );
    return { ...toEndpoint(row!), secret };
  }

  list(em: EntityManager, page: { cursor?: string; limit: number }) {
    return cursorList(em, { table: TABLE, orderBy: 'created_at' }, page, toEndpoint);
  }

  async get(em: EntityManager, id: string): Promise<WebhookEndpointData> {
    const [row] = await em.execute<Array<Record<string, unknown>>>(`select * from ${TABLE} where "id" = ?`, [id]);
    if (!row) throw OperationsError.notFound(ENTITY);
    return toEndpoint(row);
  }

  async update(em: EntityManager, id: string, change: EndpointChange): Promise<WebhookEndpointData> {
    if (change.url !== undefined) await this.checkUrl(change.url);
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `update ${TABLE} set
         "url" = coalesce(?::text, "url"),
         "event_types" = coalesce(${TEXT_ARRAY}, "event_types"),
         "description" = coalesce(?::text, "description"),
         "active" = coalesce(?::boolean, "active"),
         "updated_at" = now()
       where "id" = ? returning *`,
      [change.url ?? null, distinct(change.eventTypes), change.description ?? null, change.active ?? null, id],
    );
    if (!row) throw OperationsError.notFound(ENTITY);
    return toEndpoint(row);
  }

  async remove(em: EntityManager, id: string): Promise<{ id: string; deleted: true }> {
    const [row] = await em.execute<Array<{ id: string }>>(`delete from ${TABLE} where "id" = ? returning "id"`, [id]);
    if (!row) throw OperationsError.notFound(ENTITY);
    return { id: row.id, deleted: true };
  }

  /** A new secret; the previous one keeps signing alongside for a day so receivers can switch without a gap. */
  async rotateSecret(em: EntityManager, id: string) {
    const secret = newWebhookSecret();
    const [row] = await em.execute<Array<Record<string, unknown>>>(
      `update ${TABLE} set "previous_secret_sealed" = "secret_sealed",
         "previous_secret_expires_at" = now() + interval '${PREVIOUS_SECRET_HOURS} hours',
         "secret_sealed" = ?, "secret_rotated_at" = now(), "updated_at" = now()
       where "id" = ? returning *`,
      [this.box.seal(secret), id],
    );
    if (!row) throw OperationsError.notFound(ENTITY);
    return { ...toEndpoint(row), secret };
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
