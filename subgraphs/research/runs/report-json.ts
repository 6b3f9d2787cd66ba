import { z } from 'zod';

/**
 * The full report of a research run, the field set of the seed's Report JSON. It is
 * stored whole and never shown (Variant A): cases show `summaryText` only.
 */

const Level = z.enum(['Low', 'Medium', 'High']);
const Risk = z.object({ level: Level, reason: z.string() });

export const ReportJson = z.object({
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
export type ReportJsonData = z.output<typeof ReportJson>;

/** The one safe line a case shows for a report. */
export function summarize(report: ReportJsonData, prefix = ''): string {
  return `${prefix}${report.verdict} (confidence: ${report.confidence}). Main risk: ${report.main_risk} Validate first: ${report.validate_first}`
    .replace(/\s+/g, ' ')
    .trim();
}
