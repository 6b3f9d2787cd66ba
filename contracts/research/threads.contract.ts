import { z } from 'zod';
import { researchKey } from '../access.js';
import { defineOperation } from '../operation.js';
import type { WireRequest } from '../operation.js';
import { Message, RunStart, ThreadSummary, ThreadView, TurnAccepted } from './case-types.js';
import { ResearchErrorCode } from './errors.js';
import { research } from './fields.js';
import { RunReport } from './report.js';
import { KEY_API, keyOrSignedIn, WORKSPACE_API_PATH, workspaceApi } from './routes.js';

/**
 * Cases (`/v1/chat/threads`): a message is accepted at once (202) with the assistant's
 * reply pending; the reply is written by a queue consumer. No chat route ever starts
 * research; that is the explicit, paid `research-runs` operation.
 */

const byThread = { path: { threadId: research.threadId() } };
const byRun = { path: { threadId: research.threadId(), runId: z.string().min(1).max(100).describe('`run_…`') } };

/** Where the key API's cases are. */
export const KEY_THREADS_PATH = '/v1/chat/threads';
/** Where the workspace API's cases are. */
const WORKSPACE_THREADS = `${WORKSPACE_API_PATH}/threads`;

const POLL_THREAD = 'The case, to poll until the assistant’s reply is complete.';
const POLL_RUN = 'The run’s report route, to poll until the run completes.';

/** A 202 names what to poll in `Location`: the case (under `threads`, the API's case path) for an accepted message. */
export const pollThread =
  (threads: string) =>
  (accepted: { thread: { id: string } }, request: WireRequest): { status: number; body: unknown; headers: Record<string, string> } => ({
    status: 202,
    body: accepted,
    headers: { Location: `${request.apiUrl}${threads}/${accepted.thread.id}` },
  });

/** A queued or running research run answers 202 with the run's report route in `Location`; a reused report answers 200. */
export const pollRun = (threads: string) => (start: { reused: boolean; runId: string; thread: { id: string } }, request: WireRequest) =>
  start.reused
    ? { status: 200, body: start }
    : { status: 202, body: start, headers: { Location: `${request.apiUrl}${threads}/${start.thread.id}/research-runs/${start.runId}` } };
const CHAT_ERRORS = [ResearchErrorCode.insufficient_credits];

export const researchThreads = defineOperation({
  service: 'research',
  name: 'researchThreads',
  kind: 'query',
  summary: 'List cases',
  description: 'Safe summaries of the workspace’s cases in the key’s mode, most recently active first.',
  tags: ['threads'],
  access: keyOrSignedIn('threads_read'),
  output: ThreadSummary,
  paging: { kind: 'cursor', limit: { min: 1, max: 100, default: 20 }, cursor: 'The `nextCursor` of the previous page.' },
  rest: [
    { method: 'GET', path: KEY_THREADS_PATH, ...KEY_API },
    { method: 'GET', path: WORKSPACE_THREADS, ...workspaceApi('researchWorkspaceThreads', 'threads') },
  ],
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
  access: keyOrSignedIn('threads_read'),
  input: byThread,
  output: ThreadView,
  rest: [
    { method: 'GET', path: `${KEY_THREADS_PATH}/:threadId`, ...KEY_API },
    { method: 'GET', path: `${WORKSPACE_THREADS}/:threadId`, ...workspaceApi('researchWorkspaceThread', 'threads') },
  ],
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
  access: keyOrSignedIn('threads_write'),
  idempotency: 'optional',
  input: { body: { message: research.message() } },
  output: TurnAccepted,
  rest: [
    { method: 'POST', path: KEY_THREADS_PATH, status: 202, respond: pollThread(KEY_THREADS_PATH), location: POLL_THREAD, ...KEY_API },
    {
      method: 'POST',
      path: WORKSPACE_THREADS,
      status: 202,
      respond: pollThread(WORKSPACE_THREADS),
      location: POLL_THREAD,
      ...workspaceApi('researchWorkspaceCreateThread', 'threads'),
    },
  ],
  errors: CHAT_ERRORS,
});

export const researchAppendMessage = defineOperation({
  service: 'research',
  name: 'researchAppendMessage',
  kind: 'mutation',
  summary: 'Add a message to a case',
  description: 'Like starting a case (202, 1 credit reserved): the refreshed snapshot tells the caller whether to start research.',
  tags: ['threads'],
  access: keyOrSignedIn('threads_write'),
  idempotency: 'optional',
  input: { ...byThread, body: { message: research.message() } },
  output: TurnAccepted,
  rest: [
    {
      method: 'POST',
      path: `${KEY_THREADS_PATH}/:threadId/messages`,
      status: 202,
      respond: pollThread(KEY_THREADS_PATH),
      location: POLL_THREAD,
      ...KEY_API,
    },
    {
      method: 'POST',
      path: `${WORKSPACE_THREADS}/:threadId/messages`,
      status: 202,
      respond: pollThread(WORKSPACE_THREADS),
      location: POLL_THREAD,
      ...workspaceApi('researchWorkspaceAppendMessage', 'threads'),
    },
  ],
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
  idempotency: 'optional',
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
  access: keyOrSignedIn('research_write'),
  idempotency: 'optional',
  input: { ...byThread, body: { force: z.boolean().default(false).describe('Run again even when a matching report exists.') } },
  output: RunStart,
  rest: [
    {
      method: 'POST',
      path: `${KEY_THREADS_PATH}/:threadId/research-runs`,
      status: 202,
      respond: pollRun(KEY_THREADS_PATH),
      location: POLL_RUN,
      ...KEY_API,
    },
    {
      method: 'POST',
      path: `${WORKSPACE_THREADS}/:threadId/research-runs`,
      status: 202,
      respond: pollRun(WORKSPACE_THREADS),
      location: POLL_RUN,
      ...workspaceApi('researchWorkspaceStartRun', 'research'),
    },
  ],
  errors: [ResearchErrorCode.thread_not_found, ResearchErrorCode.thread_not_ready, ResearchErrorCode.insufficient_credits],
  mcp: { tool: 'start_research' },
});

export const researchRunReport = defineOperation({
  service: 'research',
  name: 'researchRunReport',
  kind: 'query',
  summary: 'Read a research run and its full report',
  description:
    'The run’s status and, once it completed, the whole structured report (the seed’s Report JSON fields) besides its summary line. The `Location` of a started run names this route. Provider and model metadata, token counts and request ids are never shown.',
  tags: ['research'],
  access: keyOrSignedIn('threads_read'),
  input: byRun,
  output: RunReport,
  rest: [
    { method: 'GET', path: `${KEY_THREADS_PATH}/:threadId/research-runs/:runId`, ...KEY_API },
    {
      method: 'GET',
      path: `${WORKSPACE_THREADS}/:threadId/research-runs/:runId`,
      ...workspaceApi('researchWorkspaceRunReport', 'research'),
    },
  ],
  errors: [ResearchErrorCode.thread_not_found, ResearchErrorCode.run_not_found],
  mcp: {
    resource: 'research_run',
    uri: '/chat/threads/{threadId}/research-runs/{runId}',
    description: 'One research run of a case: its status and, once completed, the full structured report.',
  },
});

/** The case snapshot the MCP reply tools answer: the safe view with the latest assistant reply picked out. */
export const ThreadReply = ThreadView.extend({
  latestReply: Message.nullable().describe('The newest assistant message, pending or complete; null in a case without one.'),
  assistantPending: z.boolean().describe('An assistant reply is still being written.'),
}).meta({ id: 'ResearchThreadReply', description: 'One case, safe view, with its latest assistant reply.' });

export const researchGetThread = defineOperation({
  service: 'research',
  name: 'researchGetThread',
  kind: 'query',
  summary: 'Read a case with its latest reply',
  description: 'The case snapshot (as `Read a case`) with the newest assistant reply and whether it is still pending.',
  tags: ['threads'],
  access: researchKey('threads_read'),
  input: { body: { threadId: research.threadId() } },
  output: ThreadReply,
  errors: [ResearchErrorCode.thread_not_found],
  mcp: { tool: 'get_thread' },
});

/** The longest a caller may wait for a reply in one call. */
export const MAX_REPLY_WAIT_SECONDS = 30;

export const researchWaitForReply = defineOperation({
  service: 'research',
  name: 'researchWaitForReply',
  kind: 'query',
  summary: 'Wait for the assistant’s reply',
  description: `Waits until the case has no pending assistant reply, or \`timeoutSeconds\` (at most ${MAX_REPLY_WAIT_SECONDS}) pass, then answers the case snapshot with the latest reply; \`assistantPending\` says whether the wait ended before the reply.`,
  tags: ['threads'],
  access: researchKey('threads_read'),
  input: {
    body: {
      threadId: research.threadId(),
      timeoutSeconds: z
        .int()
        .min(0)
        .max(MAX_REPLY_WAIT_SECONDS)
        .default(MAX_REPLY_WAIT_SECONDS)
        .describe(`How long to wait at most, in seconds (0–${MAX_REPLY_WAIT_SECONDS}).`),
    },
  },
  output: ThreadReply,
  errors: [ResearchErrorCode.thread_not_found],
  mcp: { tool: 'wait_for_reply' },
});
