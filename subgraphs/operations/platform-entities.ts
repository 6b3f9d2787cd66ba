import { AuditLogEntity } from './core/audit-log.entity.js';
import { IdempotencyKeyEntity } from './core/idempotency-key.entity.js';
import { OutboxEventEntity } from './core/outbox-event.entity.js';
import { OrganizationEntity } from './organizations/organization.entity.js';
import { AppUserEntity } from './iam/app-user.entity.js';
import { RefreshTokenEntity } from './iam/session.entity.js';
import { RevokedAccessTokenEntity } from './iam/session.entity.js';
import { SigningKeyEntity } from './iam/session.entity.js';
import { AccountTokenEntity } from './iam/account-token.entity.js';
import { TwoFactorChallengeEntity } from './iam/two-factor.entity.js';
import { BackupCodeEntity } from './iam/two-factor.entity.js';
import { AllowedIpEntity } from './iam/two-factor.entity.js';
import { LoginEventEntity } from './iam/login-event.entity.js';
import { AttemptCounterEntity } from './iam/attempt-counter.entity.js';
import { ExternalIdentityEntity } from './iam/external-identity.entity.js';
import { ExternalLoginEntity } from './iam/external-identity.entity.js';
import { ApiKeyEntity } from './iam/api-key.entity.js';
import { ApiKeyUsageEntity } from './iam/api-key.entity.js';
import { NotificationEntity } from './iam/notification.entity.js';
import { OidcClientEntity } from './iam/provider/oidc.entity.js';
import { OidcPayloadEntity } from './iam/provider/oidc.entity.js';
import { OidcKeyEntity } from './iam/provider/oidc.entity.js';
import { WebhookEndpointEntity } from './webhooks/webhook-endpoint.entity.js';
import { WebhookDeliveryEntity } from './webhooks/webhook-delivery.entity.js';
import { WebhookDispatchCursorEntity } from './webhooks/webhook-dispatch-cursor.entity.js';
import { SagaEntity } from './sagas/saga.entity.js';
import { SagaStepEntity } from './sagas/saga.entity.js';
import { DeadLetterEntity } from './sagas/dead-letter.entity.js';
import { ProductionObjectEntity } from './reference-books/reference-book.entity.js';
import { TmcCategoryEntity } from './reference-books/reference-book.entity.js';
import { DowntimeCategoryEntity } from './reference-books/reference-book.entity.js';
import { HseIncidentClassifierEntity } from './reference-books/reference-book.entity.js';
import { PositionEntity } from './reference-books/reference-book.entity.js';
import { SystemRoleEntity } from './reference-books/reference-book.entity.js';
import { MaintenanceNormEntity } from './reference-books/reference-book.entity.js';
import { ImportBatchEntity } from './reference-books/import-batch.entity.js';
import { topicFeedEntities } from '../shared/events/topic-feed.entity.js';

/** The entities of the operations platform modules (core, iam, organizations, webhooks, sagas, reference books). */
export const PLATFORM_ENTITIES = [
  AuditLogEntity,
  IdempotencyKeyEntity,
  OutboxEventEntity,
  OrganizationEntity,
  AppUserEntity,
  RefreshTokenEntity,
  RevokedAccessTokenEntity,
  SigningKeyEntity,
  AccountTokenEntity,
  TwoFactorChallengeEntity,
  BackupCodeEntity,
  AllowedIpEntity,
  LoginEventEntity,
  AttemptCounterEntity,
  ExternalIdentityEntity,
  ExternalLoginEntity,
  ApiKeyEntity,
  ApiKeyUsageEntity,
  NotificationEntity,
  OidcClientEntity,
  OidcPayloadEntity,
  OidcKeyEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  WebhookDispatchCursorEntity,
  SagaEntity,
  SagaStepEntity,
  DeadLetterEntity,
  ...topicFeedEntities(),
  ProductionObjectEntity,
  TmcCategoryEntity,
  DowntimeCategoryEntity,
  HseIncidentClassifierEntity,
  PositionEntity,
  SystemRoleEntity,
  MaintenanceNormEntity,
  ImportBatchEntity,
] as const;
