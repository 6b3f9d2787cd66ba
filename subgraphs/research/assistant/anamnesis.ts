import { createHash } from 'node:crypto';
import {
  ANAMNESIS_FIELDS,
  REQUIRED_ANAMNESIS_FIELDS,
  type AnamnesisData,
  type AnamnesisField,
  type GapAssessmentData,
} from '../../../contracts/research/case-types.js';

/**
 * The anamnesis of a case: what research needs to know about the idea. Required fields
 * (idea, target users, problem, solution, monetization) decide readiness; competitors,
 * differentiation and platform sharpen the report. Providers propose updates; the
 * service merges them, so a later turn never erases what an earlier one learned.
 */

export const emptyAnamnesis = (): AnamnesisData => ({
  ideaSummary: '',
  targetUsers: null,
  problem: null,
  solution: null,
  monetization: null,
  competitors: [],
  differentiation: null,
  platform: null,
});

/** What a provider learned from a turn: only the fields it found. */
export type AnamnesisUpdate = Partial<AnamnesisData>;

const QUESTIONS: Readonly<Record<AnamnesisField, string>> = {
  ideaSummary: 'What is your product idea, in a sentence or two?',
  targetUsers: 'Who exactly would use it, and who pays?',
  problem: 'What problem does it solve for them today?',
  solution: 'How does your product solve that problem?',
  monetization: 'How will it make money: subscription, one-time price, fees, ads?',
  competitors: 'Which apps or services do they use instead today?',
  differentiation: 'Why would they switch to yours?',
  platform: 'Where will it run: iOS, Android, web?',
};

export const questionFor = (field: AnamnesisField): string => QUESTIONS[field];

const clean = (value: unknown, max: number): string | null => {
  if (typeof value !== 'string') return null;
  const text = value.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, max) : null;
};

/** The update applied to the current anamnesis: found fields replace, competitors accumulate. */
export function mergeAnamnesis(current: AnamnesisData, update: AnamnesisUpdate): AnamnesisData {
  const merged: AnamnesisData = { ...current };
  merged.ideaSummary = clean(update.ideaSummary, 600) ?? current.ideaSummary;
  for (const field of ['targetUsers', 'problem', 'solution', 'monetization', 'differentiation', 'platform'] as const) {
    merged[field] = clean(update[field], 600) ?? current[field];
  }
  const competitors = [...current.competitors];
  for (const name of update.competitors ?? []) {
    const value = clean(name, 120);
    if (value && !competitors.some((known) => known.toLowerCase() === value.toLowerCase())) competitors.push(value);
  }
  merged.competitors = competitors.slice(0, 20);
  return merged;
}

const filled = (anamnesis: AnamnesisData, field: AnamnesisField): boolean => {
  const value = anamnesis[field];
  return Array.isArray(value) ? value.length > 0 : typeof value === 'string' && value.trim() !== '';
};

export function assessGaps(anamnesis: AnamnesisData): GapAssessmentData {
  const missing = REQUIRED_ANAMNESIS_FIELDS.filter((field) => !filled(anamnesis, field));
  const optional = ANAMNESIS_FIELDS.filter((field) => !REQUIRED_ANAMNESIS_FIELDS.includes(field) && !filled(anamnesis, field));
  const done = ANAMNESIS_FIELDS.filter((field) => filled(anamnesis, field)).length;
  const readinessStatus = missing.length === 0 ? 'ready' : missing.includes('ideaSummary') ? 'needs_idea' : 'needs_details';
  return {
    readinessStatus,
    missingFields: missing,
    optionalMissingFields: optional,
    completeness: Math.round((done / ANAMNESIS_FIELDS.length) * 100) / 100,
    nextQuestion: missing[0] ? QUESTIONS[missing[0]] : null,
  };
}

/** Canonical JSON of the fields, hashed: equal anamneses hash alike however they were written. */
export function anamnesisHash(anamnesis: AnamnesisData): string {
  const canonical = ANAMNESIS_FIELDS.map((field) => [field, anamnesis[field]]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** An anamnesis read back from storage, whatever older rows lack. */
export function anamnesisOf(stored: unknown): AnamnesisData {
  return mergeAnamnesis(emptyAnamnesis(), (stored ?? {}) as AnamnesisUpdate);
}
