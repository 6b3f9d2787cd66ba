import { z } from 'zod';
import { ReportSummary, Run } from './case-types.js';

/**
 * The full report of a research run, the field set of the seed's Report JSON (its keys as
 * the seed writes them). A case shows `summaryText` only; the whole report is read on its
 * own route (docs/adr/0033-research-idempotency-and-reports.md). Provider, model, token counts and
 * upstream request ids are stored but never part of it.
 */

const Level = z.enum(['Low', 'Medium', 'High']);
const Risk = z.object({ level: Level, reason: z.string() });

/** The body alone, unnamed (the schema given to a model for structured output). */
export const ReportJsonBody = z.object({
  verdict: z.string(),
  confidence: z.string(),
  idea: z.string(),
  differentiation: z.string(),
  main_risk: z.string(),
  validate_first: z.string(),
  cheapest_test: z.string(),
  dont_do_now: z.string(),
  potential: z.string(),
  recommendation: z.string(),
  overall_risk: z.string(),
  why_it_can_fly: z.array(z.string()),
  why_it_can_crash: z.array(z.string()),
  risk_map: z.object({ demand: Risk, monetization: Risk, technical: Risk, app_store: Risk, competition: Risk, retention: Risk }),
  competitors: z.array(z.object({ app_name: z.string(), threat_level: z.string(), why: z.string(), app_store_link: z.string() })),
});

export const ReportJson = ReportJsonBody.meta({
  id: 'ResearchReportJson',
  description: 'The structured report, as the seed’s Report JSON names its fields.',
});
export type ReportJsonData = z.output<typeof ReportJsonBody>;

export const FullReport = ReportSummary.extend({ reportJson: ReportJson }).meta({
  id: 'ResearchFullReport',
  description: 'A completed report with its whole structured body.',
});

export const RunReport = z
  .object({
    threadId: z.string(),
    run: Run,
    report: FullReport.nullable().describe('Null until the run completes (and for a failed run).'),
  })
  .meta({ id: 'ResearchRunReport', description: 'A research run and, once it completed, its full report.' });
