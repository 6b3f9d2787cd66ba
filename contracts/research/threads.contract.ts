import { z } from 'zod';
import { researchKey } from '../access.js';
import { defineOperation } from '../operation.js';
import { RunStart, ThreadSummary, ThreadView, TurnAccepted } from './case-types.js';
import { ResearchErrorCode } from './errors.js';
import { research } from './fields.js';

/**
 * Cases (`/v1/chat/threads`): a message is accepted at once (202) with the assistant's
 * reply pending; the reply is written by a queue consumer. No chat route ever starts
 * research; that is the explicit, paid `research-runs` operation.
 */

const byThread = { path: { threadId: research.threadId() } };
const CHAT_ERRORS = [ResearchErrorCode.insufficient_credits];

export const researchThreads = defineOperation({
  service: 'research',
  name: 'researchThreads',
  kind: 'query',
  summary: 'List cases',
  description: 'Safe summaries of the workspace’s cases in the key’s mode, most recently active first.',
  tags: ['threads'],
  access: researchKey('threads_read'),
  output: ThreadSummary,
  paging: { kind: 'cursor', limit: { min: 1, max: 100, default: 20 }, cursor: 'The `nextCursor` of the previous page.' },
  rest: { method: 'GET', path: '/v1/chat/threads' },
  mcp: {
    resource: 'threads',
    uri: '/chat/threads',
    description: 'Safe summaries of the workspace’s 100 most recently active cases.',
    args: { limit: 100 },
  },
});

export const researchThread = defineOperation({
  service: 'research',
  name: 'researchThread',
  kind: 'query',
  summary: 'Read a case',
  description:
    'The safe view: anamnesis, gap assessment, messages, report summaries and run status. Raw report JSON, provider and model metadata, token counts and request ids are never shown.',
  tags: ['threads'],
  access: researchKey('threads_read'),
  input: byThread,
  output: ThreadView,
  rest: { method: 'GET', path: '/v1/chat/threads/:threadId' },
  errors: [ResearchErrorCode.thread_not_found],
  mcp: {
    resource: 'thread',
    uri: '/chat/threads/{threadId}',
    description: 'One case: anamnesis, gap assessment, messages, report summaries and research runs.',
  },
});

export const researchCreateThread = defineOperation({
  service: 'research',
  name: 'researchCreateThread',
  kind: 'mutation',
  summary: 'Start a case',
  description:
    'Accepts the first message (202): the user message is complete, the assistant’s is `pending` until the reply is written. Reserves 1 credit, settled when the reply succeeds and refunded if it fails. Never starts research.',
  tags: ['threads'],
  access: researchKey('threads_write'),
  input: { body: { message: research.message() } },
  output: TurnAccepted,
  rest: { method: 'POST', path: '/v1/chat/threads', status: 202 },
  errors: CHAT_ERRORS,
});

export const researchAppendMessage = defineOperation({
  service: 'research',
  name: 'researchAppendMessage',
  kind: 'mutation',
  summary: 'Add a message to a case',
  description: 'Like starting a case (202, 1 credit reserved): the refreshed snapshot tells the caller whether to start research.',
  tags: ['threads'],
  access: researchKey('threads_write'),
  input: { ...byThread, body: { message: research.message() } },
  output: TurnAccepted,
  rest: { method: 'POST', path: '/v1/chat/threads/:threadId/messages', status: 202 },
  errors: [...CHAT_ERRORS, ResearchErrorCode.thread_not_found],
});

export const researchSendMessage = defineOperation({
  service: 'research',
  name: 'researchSendMessage',
  kind: 'mutation',
  summary: 'Send a message',
  description:
    'Starts a case when `threadId` is left out, otherwise adds to it; returns the updated snapshot at once with the reply pending. Never starts research.',
  tags: ['threads'],
  access: researchKey('threads_write'),
  input: { body: { threadId: research.threadId().optional(), message: research.message() } },
  output: TurnAccepted,
  errors: [...CHAT_ERRORS, ResearchErrorCode.thread_not_found],
  mcp: { tool: 'send_message' },
});

export const researchStartRun = defineOperation({
  service: 'research',
  name: 'researchStartRun',
  kind: 'mutation',
  summary: 'Start research',
  description:
    'Researches the case’s current anamnesis. A completed report of exactly this anamnesis is returned at once (200, nothing charged) unless `force`; otherwise a run is queued (202) for 30 credits, refunded automatically if it fails. A run of the same anamnesis already queued or running is returned instead of charging twice.',
  tags: ['research'],
  access: researchKey('research_write'),
  input: { ...byThread, body: { force: z.boolean().default(false).describe('Run again even when a matching report exists.') } },
  output: RunStart,
  rest: {
    method: 'POST',
    path: '/v1/chat/threads/:threadId/research-runs',
    status: 202,
    respond: (start) => ({ status: start.reused ? 200 : 202, body: start }),
  },
  errors: [ResearchErrorCode.thread_not_found, ResearchErrorCode.thread_not_ready, ResearchErrorCode.insufficient_credits],
  mcp: { tool: 'start_research' },
});
