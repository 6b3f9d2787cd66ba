import { ReportJsonBody, type ReportJsonData } from '../../../contracts/research/report.js';

/** The full report of a research run: its schema is the contract's (`contracts/research/report.ts`). */
export const ReportJson = ReportJsonBody;
export type { ReportJsonData };

/** The one safe line a case shows for a report. */
export function summarize(report: ReportJsonData, prefix = ''): string {
  return `${prefix}${report.verdict} (confidence: ${report.confidence}). Main risk: ${report.main_risk} Validate first: ${report.validate_first}`
    .replace(/\s+/g, ' ')
    .trim();
}
