import { defineSubscription } from '../subscription.js';
import { researchPing } from './billing.contract.js';
import { ThreadEvent } from './case-types.js';
import { RESEARCH_FEED, researchThreadWatch } from './events.contract.js';
import { researchWorkspace } from './workspace.contract.js';

/** A case watched live over graphql-ws, with a key or as the signed-in user who owns it. */
export const threadUpdated = defineSubscription({
  service: 'research',
  name: 'threadUpdated',
  description:
    'A case’s events as they happen — the assistant’s reply completing, run status changes — in order. Pass `afterSequence` (the last `sequence` seen) to resume. Send a key, or a signed-in user’s access token, at connect: `connectionParams: { authorization: "Bearer rk_…" }`.',
  access: [
    { authenticate: researchPing, grant: researchThreadWatch },
    { authenticate: researchWorkspace, grant: researchThreadWatch },
  ],
  event: ThreadEvent,
  feed: RESEARCH_FEED,
  // Released as `after`; `afterSequence` is every subscription's name for it.
  resumeAliases: ['after'],
});
