import type { AnamnesisData } from '../../../contracts/research/case-types.js';
import type { ReportJsonData } from './report-json.js';

/**
 * A report built by rules from the anamnesis alone, with no network: it judges what the
 * case says and what it leaves open, and says plainly that it knows no market data.
 */

type Level = 'Low' | 'Medium' | 'High';

const has = (value: string | null) => value !== null && value.trim() !== '';
const level = (known: boolean, risky: boolean): Level => (!known ? 'High' : risky ? 'Medium' : 'Low');

function risks(anamnesis: AnamnesisData): ReportJsonData['risk_map'] {
  const recurring = /subscription|monthly|per (month|year|user)|recurring/i.test(anamnesis.monetization ?? '');
  const mobile = /ios|iphone|android|app/i.test(`${anamnesis.platform ?? ''} ${anamnesis.solution ?? ''}`);
  return {
    demand: {
      level: level(has(anamnesis.problem), true),
      reason: has(anamnesis.problem) ? 'The pain is stated but not yet measured.' : 'No problem is stated yet.',
    },
    monetization: {
      level: level(has(anamnesis.monetization), !recurring),
      reason: has(anamnesis.monetization) ? `Planned: ${anamnesis.monetization}` : 'No way to make money is stated yet.',
    },
    technical: { level: 'Medium', reason: 'Unknown without a technical plan; offline rules cannot judge it.' },
    app_store: {
      level: mobile ? 'Medium' : 'Low',
      reason: mobile ? 'Store review and discovery apply to a mobile app.' : 'No app store dependency stated.',
    },
    competition: {
      level: anamnesis.competitors.length > 2 ? 'High' : anamnesis.competitors.length > 0 ? 'Medium' : 'High',
      reason:
        anamnesis.competitors.length > 0
          ? `Named: ${anamnesis.competitors.join(', ')}.`
          : 'No competitors named: they are unknown, not absent.',
    },
    retention: {
      level: recurring ? 'Medium' : 'High',
      reason: recurring ? 'A subscription needs a reason to come back each month.' : 'Nothing in the case brings users back.',
    },
  };
}

export function offlineReport(anamnesis: AnamnesisData): ReportJsonData {
  const risk_map = risks(anamnesis);
  const high = Object.entries(risk_map)
    .filter(([, risk]) => risk.level === 'High')
    .map(([name]) => name.replace('_', ' '));
  const main = high[0] ?? 'demand';
  return {
    verdict: high.length <= 1 ? 'Worth validating' : 'Too early to judge',
    confidence: 'Low',
    idea: anamnesis.ideaSummary,
    differentiation: anamnesis.differentiation ?? 'Not stated yet.',
    main_risk: `${main[0]!.toUpperCase()}${main.slice(1)} risk is the largest unknown.`,
    validate_first: has(anamnesis.problem)
      ? `That ${anamnesis.targetUsers ?? 'the target users'} feel this problem: ${anamnesis.problem}`
      : 'That the problem exists.',
    cheapest_test: 'A landing page with a sign-up or pre-order button, shown to 100 people of the target group.',
    dont_do_now: 'Building the full product before the demand test.',
    potential: anamnesis.competitors.length > 0 ? 'A market with paying alternatives exists.' : 'Unknown: no alternatives named.',
    recommendation: high.length <= 1 ? 'Run the cheapest test this week.' : `Answer the open points first: ${high.join(', ')}.`,
    overall_risk: high.length >= 3 ? 'High' : high.length >= 1 ? 'Medium' : 'Low',
    why_it_can_fly: [anamnesis.problem, anamnesis.differentiation].filter(has).map((text) => String(text)),
    why_it_can_crash: high.map((name) => `${name} risk is high`),
    risk_map,
    competitors: anamnesis.competitors.map((name) => ({
      app_name: name,
      threat_level: 'Medium',
      why: 'Named in the case.',
      app_store_link: `https://apps.apple.com/us/search?term=${encodeURIComponent(name)}`,
    })),
  };
}
