import { topicFeedEntities } from '../shared/events/topic-feed.entity.js';
import { ResearchIdempotencyKeyEntity } from './access/idempotency-key.entity.js';
import { CreditBalanceEntity, CreditLedgerEntryEntity, TopUpEntity } from './billing/credit.entity.js';
import { ResearchApiKeyEntity } from './keys/api-key.entity.js';
import { ReportEntity, ResearchRunEntity } from './runs/research-run.entity.js';
import { MessageEntity, ThreadEntity } from './threads/thread.entity.js';
import { WorkspaceEntity } from './workspaces/workspace.entity.js';

/** Every table of the research schema, as entities. */
export const RESEARCH_ENTITIES = [
  WorkspaceEntity,
  ResearchApiKeyEntity,
  CreditBalanceEntity,
  CreditLedgerEntryEntity,
  TopUpEntity,
  ThreadEntity,
  MessageEntity,
  ResearchRunEntity,
  ReportEntity,
  ResearchIdempotencyKeyEntity,
  ...topicFeedEntities(),
];
