import type { QueueSpec } from '../shared/queues/queue-hub.js';

/** The research service's queues: one job per assistant turn (id: the pending message) and per run (id: the run). */

export interface TurnJob {
  readonly messageId: string;
}

export interface RunJob {
  readonly runId: string;
}

export const ASSISTANT_TURNS: QueueSpec = { name: 'research-assistant-turns', attempts: 3, backoffMs: 500 };
export const RESEARCH_RUNS: QueueSpec = { name: 'research-runs', attempts: 2, backoffMs: 1000 };
