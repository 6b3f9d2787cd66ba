import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { KeyMode } from '../../../contracts/research/account-types.js';
import type { GapAssessmentData, RunData } from '../../../contracts/research/case-types.js';
import type { ReportJsonData } from './report-json.js';

/** A paid research run of a case, on the anamnesis as it stood when the run was asked for. */
export const ResearchRunEntity = defineEntity({
  name: 'ResearchRun',
  tableName: 'research_run',
  properties: {
    id: p.text().primary(),
    threadId: p.text(),
    workspaceId: p.text(),
    mode: p.text().$type<KeyMode>(),
    status: p.text().$type<RunData['status']>(),
    anamnesis: p.json<unknown>(),
    anamnesisHash: p.text(),
    gapAssessment: p.json<GapAssessmentData>(),
    creditsCharged: p.integer(),
    refunded: p.boolean().default(false),
    reportId: p.text().nullable(),
    failure: p.text().nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('clock_timestamp()'),
    startedAt: p.datetime().columnType('timestamptz').nullable(),
    finishedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

/** The report a completed run produced. */
export const ReportEntity = defineEntity({
  name: 'Report',
  tableName: 'report',
  properties: {
    id: p.text().primary(),
    threadId: p.text(),
    runId: p.text(),
    anamnesisHash: p.text(),
    summaryText: p.text(),
    // Loaded only when asked for: the full report, and what the provider reported (never answered).
    reportJson: p.json<ReportJsonData>().lazy(),
    provider: p.text().lazy(),
    model: p.text().nullable().lazy(),
    promptTokens: p.integer().nullable().lazy(),
    completionTokens: p.integer().nullable().lazy(),
    upstreamRequestId: p.text().nullable().lazy(),
    createdAt: p.datetime().columnType('timestamptz'),
    completedAt: p.datetime().columnType('timestamptz').defaultRaw('clock_timestamp()'),
  },
});

export type ResearchRun = InferEntity<typeof ResearchRunEntity>;
export type Report = InferEntity<typeof ReportEntity>;
