import { describe, expect, it } from 'vitest';
import { anamnesisHash, assessGaps, emptyAnamnesis, mergeAnamnesis } from '../../../subgraphs/research/assistant/anamnesis.js';
import { OfflineAssistant } from '../../../subgraphs/research/assistant/offline-assistant.js';
import { extractFields } from '../../../subgraphs/research/assistant/offline-extraction.js';

describe('the offline assistant', () => {
  it('reads labelled lines, inside a message too', () => {
    expect(extractFields('An app for pets. Monetization: $5 per month. Competitors: Rover, Wag and Care.com', false)).toMatchObject({
      monetization: '$5 per month.',
      competitors: ['Rover', 'Wag', 'Care.com'],
    });
  });

  it('sorts unlabelled sentences by cue words and keeps the user’s own words', () => {
    const update = extractFields(
      'We build an app that matches tutors with students for language exchange. Students find it hard to practise speaking. We charge a monthly subscription. It runs on iOS and Android.',
      false,
    );
    expect(update).toMatchObject({
      ideaSummary: 'We build an app that matches tutors with students for language exchange.',
      problem: 'Students find it hard to practise speaking.',
      monetization: 'We charge a monthly subscription.',
      platform: 'iOS, Android',
    });
  });

  it('takes no idea from a greeting', () => {
    expect(extractFields('hello there', false).ideaSummary).toBeUndefined();
  });

  it('labels its reply and asks for the first missing required field', async () => {
    const turn = await new OfflineAssistant().turn({
      anamnesis: emptyAnamnesis(),
      history: [{ role: 'user', content: 'Idea: a marketplace for used bikes' }],
    });
    expect(turn.reply).toBe(
      '[Offline assistant: built-in rules, no AI model] Noted: the idea. Still missing: target users, the problem, the solution, monetization. Who exactly would use it, and who pays?',
    );
    expect(turn.meta).toEqual({ provider: 'offline', model: null, promptTokens: null, completionTokens: null, requestId: null });
  });
});

describe('the anamnesis', () => {
  it('merges updates without erasing known fields and accumulates competitors once', () => {
    const first = mergeAnamnesis(emptyAnamnesis(), { ideaSummary: 'Bikes', competitors: ['Rover'], problem: 'Hard' });
    const second = mergeAnamnesis(first, { ideaSummary: '  ', competitors: ['rover', 'Wag'], problem: null });
    expect(second).toMatchObject({ ideaSummary: 'Bikes', problem: 'Hard', competitors: ['Rover', 'Wag'] });
  });

  it('is ready when every required field is filled, whatever the optional ones', () => {
    const ready = mergeAnamnesis(emptyAnamnesis(), { ideaSummary: 'a', targetUsers: 'b', problem: 'c', solution: 'd', monetization: 'e' });
    expect(assessGaps(ready)).toEqual({
      readinessStatus: 'ready',
      missingFields: [],
      optionalMissingFields: ['competitors', 'differentiation', 'platform'],
      completeness: 0.63,
      nextQuestion: null,
    });
    expect(assessGaps(emptyAnamnesis()).readinessStatus).toBe('needs_idea');
    expect(assessGaps({ ...ready, monetization: null }).readinessStatus).toBe('needs_details');
  });

  it('hashes equal anamneses alike and any change differently', () => {
    const base = mergeAnamnesis(emptyAnamnesis(), { ideaSummary: 'x' });
    expect(anamnesisHash(base)).toBe(anamnesisHash({ ...base }));
    expect(anamnesisHash(base)).not.toBe(anamnesisHash({ ...base, platform: 'iOS' }));
  });
});
