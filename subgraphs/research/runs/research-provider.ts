import type { AnamnesisData } from '../../../contracts/research/case-types.js';
import type { ProviderMeta, StructuredCompletion } from '../llm/structured-completion.js';
import { ReportJson, summarize, type ReportJsonData } from './report-json.js';
import { offlineReport } from './offline-report.js';

/** Who writes reports: an OpenAI-compatible LLM (live keys, `LLM_BASE_URL`) or the offline rules. */

export interface ReportResult {
  readonly report: ReportJsonData;
  readonly summaryText: string;
  readonly meta: ProviderMeta;
}

export interface ResearchProvider {
  research(anamnesis: AnamnesisData): Promise<ReportResult>;
}

export const OFFLINE_REPORT_LABEL = 'Offline report (built-in rules, no AI model): ';

export class OfflineResearcher implements ResearchProvider {
  async research(anamnesis: AnamnesisData): Promise<ReportResult> {
    const report = offlineReport(anamnesis);
    return {
      report,
      summaryText: summarize(report, OFFLINE_REPORT_LABEL),
      meta: { provider: 'offline', model: null, promptTokens: null, completionTokens: null, requestId: null },
    };
  }
}

const SYSTEM = `You are a sober startup analyst. From the founder's anamnesis, write a research report as JSON with exactly
the fields of the schema. Judge demand, monetization, technical, app store, competition and retention risks (Low, Medium,
High) with one-sentence reasons; name real competitors when you know them, with App Store links when they exist, else
an empty string. Recommend the cheapest test that validates the riskiest assumption first.`;

export class LlmResearcher implements ResearchProvider {
  constructor(private readonly llm: StructuredCompletion) {}

  async research(anamnesis: AnamnesisData): Promise<ReportResult> {
    const { value, meta } = await this.llm.complete({
      name: 'research_report',
      schema: ReportJson,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: JSON.stringify(anamnesis) },
      ],
    });
    return { report: value, summaryText: summarize(value), meta };
  }
}
