import { z } from 'zod';
import { researchKey } from '../access.js';
import { defineOperation } from '../operation.js';
import { topicFeed } from '../subscription.js';
import { ThreadEvent } from './case-types.js';
import { ResearchErrorCode } from './errors.js';
import { research } from './fields.js';
import { keyOrSignedIn } from './routes.js';

/** What happens in a case, in order: read back with a query, or watched live with `threadUpdated`. */

export const RESEARCH_FEED = topicFeed('research');

const byThread = { threadId: research.threadId() };

export const researchThreadEvents = defineOperation({
  service: 'research',
  name: 'researchThreadEvents',
  kind: 'query',
  summary: 'Events of a case',
  description:
    'The events `threadUpdated` delivers, after `after` (a sequence number), oldest first: to catch up before or after watching.',
  tags: ['threads'],
  access: researchKey('threads_read'),
  input: {
    query: {
      ...byThread,
      after: z.int().min(0).default(0).describe('Only events with a larger sequence.'),
      limit: z.int().min(1).max(500).default(100),
    },
  },
  output: z.array(ThreadEvent),
  errors: [ResearchErrorCode.thread_not_found],
});

export const researchThreadWatch = defineOperation({
  service: 'research',
  name: 'researchThreadWatch',
  kind: 'query',
  summary: 'May this caller watch a case',
  description: 'Internal to `threadUpdated`: the case’s feed topic when the key, or the signed-in user, may read it.',
  tags: ['threads'],
  access: keyOrSignedIn('threads_read'),
  input: { query: byThread },
  output: z.object({ topic: z.string() }).meta({ id: 'ResearchThreadWatch' }),
  errors: [ResearchErrorCode.thread_not_found],
});
