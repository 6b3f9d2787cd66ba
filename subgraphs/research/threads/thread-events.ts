import type { EntityManager } from '@mikro-orm/postgresql';
import type { ThreadEventData } from '../../../contracts/research/case-types.js';
import { RESEARCH_FEED } from '../../../contracts/research/events.contract.js';
import { publishToTopic, readTopic } from '../../shared/events/topic-feed.js';

/** A case's events on the research topic feed: the source of `threadUpdated` and `researchThreadEvents`. */

export const threadTopic = (threadId: string): string => `thread:${threadId}`;

export type ThreadEventInput = Pick<ThreadEventData, 'threadId' | 'type'> &
  Partial<Pick<ThreadEventData, 'message' | 'run' | 'anamnesis' | 'gapAssessment' | 'reportStaleness'>>;

/** Appends an event in the caller's transaction: subscribers see it when (and only if) the change commits. */
export function publishThreadEvent(em: EntityManager, event: ThreadEventInput): Promise<number> {
  const payload: Omit<ThreadEventData, 'sequence'> = {
    threadId: event.threadId,
    type: event.type,
    occurredAt: new Date().toISOString(),
    message: event.message ?? null,
    run: event.run ?? null,
    anamnesis: event.anamnesis ?? null,
    gapAssessment: event.gapAssessment ?? null,
    reportStaleness: event.reportStaleness ?? null,
  };
  return publishToTopic(em, RESEARCH_FEED, { topic: threadTopic(event.threadId), type: event.type, payload });
}

export async function threadEvents(em: EntityManager, threadId: string, after: number, limit: number): Promise<ThreadEventData[]> {
  const events = await readTopic(em, RESEARCH_FEED, threadTopic(threadId), after, limit);
  return events.map((event) => ({ ...(event.payload as Omit<ThreadEventData, 'sequence'>), sequence: event.sequence }));
}
