import { describe, expect, it } from 'vitest';
import { samplingBody } from '../../src/lib/sampling-settings';

describe('samplingBody', () => {
  it('sends temperature and top_p always, and the other settings only when they are set', () => {
    const unset = { temperature: 0.7, topP: 1, maxTokens: null, seed: null, stop: '' };
    expect(samplingBody(unset)).toEqual({ temperature: 0.7, top_p: 1 });
    expect(
      samplingBody({ ...unset, maxTokens: 64, seed: 7, presencePenalty: 0.5, frequencyPenalty: 0, stop: 'END\n\n###' }),
    ).toEqual({
      temperature: 0.7,
      top_p: 1,
      max_tokens: 64,
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0,
      stop: ['END', '###'],
    });
  });
});
