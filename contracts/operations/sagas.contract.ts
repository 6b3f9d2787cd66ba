import { z } from 'zod';
import { members, superAdminOnly } from '../access.js';
import { defineOperation } from '../operation.js';
import { defineSubscription, topicFeed } from '../subscription.js';
import { EamErrorCode } from './eam/errors.js';
import { OperationsErrorCode as Code } from './errors.js';
import { ops } from './fields.js';
import { iamMe } from './iam.contract.js';

/**
 * Saga tracking and dead letters (seed 002, "Saga tracking and dead letters"; paths as
 * OPERATIONS-API.md fixes them). A saga's steps run as jobs of `core-saga-steps`, their
 * compensations as jobs of `core-saga-compensate`, job ids `<sagaId>__<stepName>`
 * (docs/adr/0019-sagas.md).
 */

export const OPERATIONS_FEED = topicFeed('operations');
export const SAGA_QUEUES = ['core-saga-steps', 'core-saga-compensate'] as const;

const SAGA_STATUSES = ['running', 'compensating', 'completed', 'compensated', 'failed'] as const;
const STEP_STATUSES = ['pending', 'running', 'completed', 'failed', 'compensating', 'compensated'] as const;
const sagaId = z.uuid().describe('The saga’s id, from the call that started it.');

export const SagaStepStatus = z.enum(STEP_STATUSES).meta({
  id: 'SagaStepStatus',
  description: '`completed`, `failed` and `compensated` are terminal; a step being retried stays `running` with its last `error`.',
});

export const SagaStepRecord = z
  .object({
    name: z.string(),
    status: SagaStepStatus,
    attempts: z.int().describe('Tries of the step so far (its compensation’s are not counted).'),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    error: z.string().nullable().describe('The last failure of the step or its compensation.'),
  })
  .meta({ id: 'SagaStep' });

export const SagaStatus = z
  .object({
    sagaId: z.uuid(),
    type: z.string().describe('e.g. `prd.shift-report.approve`, `prd.shift-report.reject-after-approve`, `eam.asset-decommission`.'),
    status: z.enum(SAGA_STATUSES).meta({ id: 'SagaState' }),
    entityType: z.string(),
    entityId: z.uuid(),
    error: z.string().nullable().describe('Why it compensated or failed: the step and its error.'),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    steps: z.array(SagaStepRecord).describe('In order; poll until the saga is `completed`, `compensated` or `failed`.'),
  })
  .meta({ id: 'SagaStatus', description: 'A saga and its steps.' });

export const SagaProgressEvent = z
  .object({
    sequence: z.int().describe('From 1, per saga; resume with `afterSequence`.'),
    sagaId: z.uuid(),
    step: z.string().nullable().describe('The step that changed, or null for the saga itself.'),
    status: z.string().describe('The step’s (or the saga’s) new status.'),
    attempts: z.int(),
    error: z.string().nullable(),
    at: z.string(),
  })
  .meta({ id: 'SagaProgressEvent', description: 'One change of a saga or one of its steps.' });

export const DeadLetter = z
  .object({
    queue: z.enum(SAGA_QUEUES),
    jobId: z.string().describe('`<sagaId>__<stepName>`.'),
    sagaId: z.uuid(),
    step: z.string(),
    attemptsMade: z.int(),
    failedReason: z.string(),
    failedAt: z.string().nullable(),
  })
  .meta({ id: 'DeadLetter', description: 'A saga job that used up its attempts.' });

export const SagaQueueCounts = z
  .object({
    name: z.enum(SAGA_QUEUES),
    failed: z.int(),
    waiting: z.int(),
    active: z.int(),
    delayed: z.int(),
    completed: z.int(),
  })
  .meta({ id: 'SagaQueueCounts' });

const reader = members('any', { objectScope: false });
const deadLetterKeeper = members(['Admin'], { objectScope: false });
const deadLetterPath = {
  queue: z.enum(SAGA_QUEUES),
  jobId: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}__[a-z0-9-]{1,64}$/, 'must be <sagaId>__<stepName>')
    .meta({ examples: ['3f1c2a9e-5b7d-4c2e-9a61-0d8e4b7f2c10__fuel'] }),
};

export const coreSagaStatus = defineOperation({
  service: 'operations',
  name: 'coreSagaStatus',
  kind: 'query',
  summary: 'Saga progress',
  description: 'The saga’s steps with their status, attempts, times and last error; only sagas of the caller’s organization.',
  tags: ['core: sagas'],
  access: reader,
  input: { path: { sagaId } },
  output: SagaStatus,
  rest: { method: 'GET', path: '/api/v1/sagas/:sagaId/status' },
  errors: [Code.SAGA_NOT_FOUND],
});

export const coreSagaEvents = defineOperation({
  service: 'operations',
  name: 'coreSagaEvents',
  kind: 'query',
  summary: 'Saga progress events',
  description: 'What `sagaProgress` delivers, after `afterSequence`, oldest first: to catch up before or after watching.',
  tags: ['core: sagas'],
  access: reader,
  input: {
    path: { sagaId },
    query: { afterSequence: z.int().min(0).default(0), limit: z.int().min(1).max(500).default(100) },
  },
  output: z.array(SagaProgressEvent),
  rest: { method: 'GET', path: '/api/v1/sagas/:sagaId/events' },
  errors: [Code.SAGA_NOT_FOUND],
});

export const coreSagaWatch = defineOperation({
  service: 'operations',
  name: 'coreSagaWatch',
  kind: 'query',
  summary: 'May the caller watch a saga',
  description: 'Internal to `sagaProgress`: the saga’s feed topic when it is one of the caller’s organization.',
  tags: ['core: sagas'],
  access: reader,
  input: { query: { sagaId } },
  output: z.object({ topic: z.string() }).meta({ id: 'SagaWatch' }),
  errors: [Code.SAGA_NOT_FOUND],
});

export const sagaProgress = defineSubscription({
  service: 'operations',
  name: 'sagaProgress',
  description:
    'Every change of a saga and its steps, in order, each with its `sequence`; resume after a reconnect with `afterSequence` (the last `sequence` seen). Send the access token (or `X-API-Key`) at connect: `connectionParams: { authorization: "Bearer …" }`.',
  access: [{ authenticate: iamMe, grant: coreSagaWatch }],
  event: SagaProgressEvent,
  feed: OPERATIONS_FEED,
});

export const coreDeadLetters = defineOperation({
  service: 'operations',
  name: 'coreDeadLetters',
  kind: 'query',
  summary: 'Failed saga jobs',
  description:
    'Of the steps and compensate queues, newest first, the caller’s organization only; `limit` per queue, `truncated` when a queue had more.',
  tags: ['core: sagas'],
  access: deadLetterKeeper,
  input: { query: { limit: z.int().min(1).max(500).default(50) } },
  output: z.object({ entries: z.array(DeadLetter), truncated: z.boolean() }).meta({ id: 'DeadLetters' }),
  rest: { method: 'GET', path: '/api/v1/core/sagas/dead-letters' },
});

export const coreSagaQueues = defineOperation({
  service: 'operations',
  name: 'coreSagaQueues',
  kind: 'query',
  summary: 'Saga queue counters',
  description: 'Jobs failed, waiting, active, delayed and completed per queue, for the whole platform (super-admin).',
  tags: ['core: sagas'],
  access: superAdminOnly(),
  output: z.object({ queues: z.array(SagaQueueCounts) }).meta({ id: 'SagaQueues' }),
  rest: { method: 'GET', path: '/api/v1/core/sagas/queues' },
});

export const coreRetryDeadLetter = defineOperation({
  service: 'operations',
  name: 'coreRetryDeadLetter',
  kind: 'mutation',
  summary: 'Retry a failed saga job',
  description:
    'The job moves from failed to waiting with its attempts reset. A compensated saga whose failed step is retried runs again from its first step (its compensation undid the others).',
  tags: ['core: sagas'],
  access: deadLetterKeeper,
  input: { path: deadLetterPath },
  output: z.object({ queue: z.enum(SAGA_QUEUES), jobId: z.string(), status: z.literal('waiting') }).meta({ id: 'DeadLetterRetried' }),
  rest: { method: 'POST', path: '/api/v1/core/sagas/dead-letters/:queue/:jobId/retry' },
  errors: [Code.DEAD_LETTER_NOT_FOUND],
});

export const coreDeleteDeadLetter = defineOperation({
  service: 'operations',
  name: 'coreDeleteDeadLetter',
  kind: 'mutation',
  summary: 'Delete a failed saga job',
  description: 'For good; the saga keeps its state.',
  tags: ['core: sagas'],
  access: deadLetterKeeper,
  input: { path: deadLetterPath },
  output: z.object({ queue: z.enum(SAGA_QUEUES), jobId: z.string(), deleted: z.literal(true) }).meta({ id: 'DeadLetterDeleted' }),
  rest: { method: 'DELETE', path: '/api/v1/core/sagas/dead-letters/:queue/:jobId' },
  errors: [Code.DEAD_LETTER_NOT_FOUND],
});

export const eamStartAssetDecommissionSaga = defineOperation({
  service: 'operations',
  name: 'eamStartAssetDecommissionSaga',
  kind: 'mutation',
  summary: 'Decommission an asset as a saga',
  description:
    'Checks the asset and the second approver at once, then decommissions in steps (a draft journal entry, open maintenance cancelled, the asset decommissioned), compensated in reverse order if a step keeps failing. Follow it at `/api/v1/sagas/{sagaId}/status` or with `sagaProgress`.',
  tags: ['eam: assets'],
  access: members(['Engineer', 'CEO', 'Mechanic', 'Admin']),
  idempotency: 'required',
  input: {
    body: {
      assetId: ops.ref('eam.asset', z.uuid()),
      coApprovedBy: ops.ref('iam.user', z.uuid()).describe('The second approver: an active CEO or Engineer other than the caller.'),
      reason: z.string().trim().min(5).max(1000),
    },
  },
  output: z.object({ sagaId: z.uuid(), assetId: z.uuid(), status: z.literal('enqueued') }).meta({ id: 'AssetDecommissionSagaStarted' }),
  rest: { method: 'POST', path: '/api/v1/eam/sagas/asset-decommission', status: 202 },
  errors: [
    Code.RECORD_NOT_FOUND,
    Code.SAGA_ALREADY_RUNNING,
    EamErrorCode.ASSET_ALREADY_DECOMMISSIONED,
    EamErrorCode.ASSET_CO_APPROVER_INVALID,
    EamErrorCode.ASSET_CO_APPROVER_IS_ACTOR,
  ],
});

export const SAGA_CONTRACTS = [
  coreSagaStatus,
  coreSagaEvents,
  coreSagaWatch,
  coreDeadLetters,
  coreSagaQueues,
  coreRetryDeadLetter,
  coreDeleteDeadLetter,
  eamStartAssetDecommissionSaga,
];
export const OPERATIONS_SUBSCRIPTIONS = [sagaProgress];
