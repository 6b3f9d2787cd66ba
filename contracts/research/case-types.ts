import { z } from 'zod';

/**
 * The blocks of a research case (thread) as every caller sees them: safe views only.
 * Raw report JSON, provider and model names, token counts and upstream request ids
 * are stored but never part of any of these types (Variant A).
 */

const at = () => z.string().describe('ISO 8601 date-time.');

/** The anamnesis fields, in the order the assistant asks for them. */
export const ANAMNESIS_FIELDS = [
  'ideaSummary',
  'targetUsers',
  'problem',
  'solution',
  'monetization',
  'competitors',
  'differentiation',
  'platform',
] as const;
export type AnamnesisField = (typeof ANAMNESIS_FIELDS)[number];

/** What a research run cannot do without; the others sharpen the report. */
export const REQUIRED_ANAMNESIS_FIELDS: readonly AnamnesisField[] = ['ideaSummary', 'targetUsers', 'problem', 'solution', 'monetization'];

export const Anamnesis = z
  .object({
    ideaSummary: z.string().describe('What the product is, in a sentence or two; empty until the idea is described.'),
    targetUsers: z.string().nullable().describe('Who would use and pay for it.'),
    problem: z.string().nullable().describe('The pain it removes.'),
    solution: z.string().nullable().describe('How the product removes it.'),
    monetization: z.string().nullable().describe('How it makes money (subscription, fees, ads, …).'),
    competitors: z.array(z.string()).describe('Known alternatives and competitors, by name.'),
    differentiation: z.string().nullable().describe('Why users would pick it over the alternatives.'),
    platform: z.string().nullable().describe('Where it runs: iOS, Android, web, …'),
  })
  .meta({ id: 'ResearchAnamnesis', description: 'The structured summary of the idea the assistant maintains.' });
export type AnamnesisData = z.output<typeof Anamnesis>;

export const ReadinessStatus = z
  .enum(['ready', 'needs_idea', 'needs_details'])
  .meta({ id: 'ResearchReadinessStatus', description: '`ready`: research can run; otherwise what is missing first.' });

export const GapAssessment = z
  .object({
    readinessStatus: ReadinessStatus,
    missingFields: z.array(z.string()).describe('Required anamnesis fields still empty, in the order the assistant asks.'),
    optionalMissingFields: z.array(z.string()).describe('Optional fields still empty; research runs without them.'),
    completeness: z.number().describe('Share of all anamnesis fields filled, 0 to 1.'),
    nextQuestion: z.string().nullable().describe('What the assistant asks next; null when ready.'),
  })
  .meta({ id: 'ResearchGapAssessment' });
export type GapAssessmentData = z.output<typeof GapAssessment>;

export const ReportStaleness = z
  .object({
    isStale: z.boolean().describe('True when the anamnesis changed after the latest completed report.'),
    latestCompletedReportId: z.string().nullable(),
  })
  .meta({ id: 'ResearchReportStaleness' });

export const Message = z
  .object({
    id: z.string().describe('`msg_…`'),
    role: z.enum(['user', 'assistant']).meta({ id: 'ResearchMessageRole' }),
    content: z.string().describe('The text; a pending assistant message holds a short waiting text.'),
    status: z.enum(['pending', 'complete']).meta({ id: 'ResearchMessageStatus' }),
    createdAt: at(),
  })
  .meta({ id: 'ResearchMessage' });
export type MessageData = z.output<typeof Message>;

export const ReportSummary = z
  .object({
    id: z.string().describe('`report_…`'),
    runId: z.string().describe('`run_…`'),
    createdAt: at(),
    completedAt: at(),
    summaryText: z.string(),
  })
  .meta({ id: 'ResearchReportSummary', description: 'A report as cases show it: never its full JSON.' });

export const ThreadBlock = z
  .object({
    id: z.string().describe('`thread_…`'),
    latestCompletedReportId: z.string().nullable(),
    messageCount: z.int(),
    reports: z.array(ReportSummary),
    createdAt: at(),
    updatedAt: at(),
  })
  .meta({ id: 'ResearchThread' });

export const RunStatus = z.enum(['queued', 'running', 'completed', 'failed']).meta({ id: 'ResearchRunStatus' });

export const Run = z
  .object({
    id: z.string().describe('`run_…`'),
    status: RunStatus,
    creditsCharged: z.int(),
    refunded: z.boolean().describe('A failed run gives its credits back automatically.'),
    reportId: z.string().nullable(),
    failure: z.string().nullable().describe('Why the run failed, in safe words.'),
    createdAt: at(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'ResearchRun' });
export type RunData = z.output<typeof Run>;

export const TurnAccepted = z
  .object({
    assistantMessage: Message,
    userMessage: Message,
    anamnesis: Anamnesis,
    gapAssessment: GapAssessment,
    reportStaleness: ReportStaleness,
    thread: ThreadBlock,
  })
  .meta({ id: 'ResearchTurnAccepted', description: 'A message accepted: the case snapshot with the assistant’s reply pending.' });

export const ThreadView = z
  .object({
    thread: ThreadBlock,
    anamnesis: Anamnesis,
    gapAssessment: GapAssessment,
    reportStaleness: ReportStaleness,
    messages: z.array(Message),
    runs: z.array(Run),
  })
  .meta({ id: 'ResearchThreadView', description: 'One case, safe view.' });

export const ThreadSummary = z
  .object({
    id: z.string(),
    title: z.string().describe('The idea summary, shortened; empty until the idea is described.'),
    messageCount: z.int(),
    readinessStatus: ReadinessStatus,
    assistantPending: z.boolean().describe('An assistant reply is still being written.'),
    latestCompletedReportId: z.string().nullable(),
    createdAt: at(),
    updatedAt: at(),
  })
  .meta({ id: 'ResearchThreadSummary' });

export const RunStart = z
  .object({
    reused: z.boolean().describe('True (HTTP 200) when an exactly matching completed report is returned and nothing is charged.'),
    runId: z.string(),
    run: Run,
    anamnesisSnapshot: Anamnesis,
    gapAssessment: GapAssessment,
    reportStaleness: ReportStaleness,
    thread: ThreadBlock,
    report: ReportSummary.nullable().describe('The reused report; null for a new run.'),
  })
  .meta({ id: 'ResearchRunStart' });

export const THREAD_EVENT_TYPES = [
  'assistant_reply_completed',
  'assistant_reply_failed',
  'run_queued',
  'run_running',
  'run_completed',
  'run_failed',
] as const;

export const ThreadEvent = z
  .object({
    sequence: z.int().describe('Position in the case’s event feed, from 1; resume with `after`.'),
    threadId: z.string(),
    type: z.enum(THREAD_EVENT_TYPES).meta({ id: 'ResearchThreadEventType' }),
    occurredAt: at(),
    message: Message.nullable().describe('The assistant message, for `assistant_reply_*`.'),
    run: Run.nullable().describe('The run, for `run_*`.'),
    anamnesis: Anamnesis.nullable(),
    gapAssessment: GapAssessment.nullable(),
    reportStaleness: ReportStaleness.nullable(),
  })
  .meta({ id: 'ResearchThreadEvent', description: 'Something that happened in a case, in order.' });
export type ThreadEventData = z.output<typeof ThreadEvent>;
